// The page in headless Chromium (Debian's /usr/bin/chromium, driven by puppeteer-core): serves
// the built page on 127.0.0.1, loads it (timed), and in each scene drags targets with the mouse
// (real input events), then asserts from the page's own state (window.ikState) that the solve
// converged, that the target landed where the mouse let go, and that each drawn effector is
// within a pixel of its drawn target on the screen. Saves a screenshot of each scene; prints the
// load time and the solve times. Ends with "N passed, N failed"; bounded to 110 s.
//   node web/test.mjs [--dir build/web] [--shots build/web-shots] [--chromium /usr/bin/chromium]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { serve } from './serve.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const DIR = arg('dir', 'build/web');
const SHOTS = arg('shots', 'build/web-shots');
const CHROMIUM = arg('chromium', process.env.CHROMIUM ?? '/usr/bin/chromium');
const WIDTH = 1100, HEIGHT = 700;
const PIXEL = 1; // the drawn effector within this many pixels of the drawn target
const LOAD_MS = 2000;

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}
const finish = (code) => {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
};
const deadline = setTimeout(() => {
  failed++;
  console.log('FAIL the test ran out of its 110 s');
  finish(1);
}, 110000);

const server = await serve(DIR, 0);
const url = `http://127.0.0.1:${server.address().port}/`;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ik-web-chromium-'));
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  userDataDir: profile,
  defaultViewport: { width: WIDTH, height: HEIGHT },
  // WebGL without a GPU (SwiftShader); no sandbox as root; no background traffic
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-extensions'],
});
const page = await browser.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

const state = () => page.evaluate(() => JSON.parse(JSON.stringify(window.ikState)));
const frames = (n = 2) => page.evaluate(async (k) => { for (let i = 0; i < k; i++) await ikTest.nextFrame(); }, n);
const times = {}; // per scene (and arm solver): the solves while dragging, us and iterations
async function recordTimes(key) {
  const s = await state();
  (times[key] ??= []).push([s.us, s.iterations]);
}

// Drags target `name` by (dx, dy) pixels with the mouse in `steps` moves, each move a frame
// (one solve), then checks the target, the solve and the pixels.
async function drag(label, name, dx, dy, steps = 6) {
  const before = await state();
  const [x, y] = before.targets[name].screen;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x + (dx * i) / steps, y + (dy * i) / steps);
    await frames(1);
    await recordTimes(label.split(':')[0]);
  }
  await page.mouse.up();
  await frames(2);
  const s = await state();
  const [tx, ty] = s.targets[name].screen;
  const moved = Math.hypot(tx - (x + dx), ty - (y + dy));
  check(`${label}: ${name} dragged ${Math.hypot(dx, dy).toFixed(0)} px follows the mouse`, moved < PIXEL,
        `${moved.toFixed(3)} px from where the mouse let go`);
  check(`${label}: converged after dragging ${name}`, s.status === 'converged',
        `${s.status}, ${s.iterations} iterations, ${s.us.toFixed(2)} us, error ${s.positionError.toExponential(1)} m`);
  const worst = Object.entries(s.pixelErrors).sort((a, b) => b[1] - a[1])[0];
  check(`${label}: every drawn effector within ${PIXEL} px of its target`, s.maxPixelError < PIXEL,
        `largest ${worst[1].toFixed(4)} px (${worst[0]})`);
  return s;
}

// The UR5e's solutions after a solve: some (when reachable), each one's flange within a pixel of
// the target, the solid arm (drawn from the scene's state) the first solution, and that one the
// nearest the state before the solve (among those within the limits, if it is), measured here
// from the joint values.
function checkSolutions(label, s) {
  const list = s.urSolutions;
  const dist = (q) => Math.hypot(...q.map((v, j) => v - s.urPrevious[j]));
  const worst = Math.max(...list.map((x) => x.pixelError));
  check(`${label}: solutions listed`, list.length > 0 && list.length <= 8 && s.urBranches === list.length,
        `${list.length} drawn, ${s.urListed} listed with whole turns, ${s.urBranches} closed-form answers`);
  check(`${label}: every solution's flange within ${PIXEL} px of the target`, worst < PIXEL,
        `largest ${worst.toFixed(4)} px of ${list.length}`);
  check(`${label}: every solution meets the flange's pose (position and rotation)`, s.positionError < 1e-9 && s.rotationError < 1e-9,
        `largest errors ${s.positionError.toExponential(1)} m, ${s.rotationError.toExponential(1)} rad`);
  const apart = Math.max(...s.jointScreens.map((p, k) => Math.hypot(p[0] - list[0].jointScreens[k][0], p[1] - list[0].jointScreens[k][1])));
  check(`${label}: the solid arm is drawn at the first solution`, apart < 1e-6, `its joints ${apart.toExponential(1)} px apart`);
  const rivals = list.filter((x) => !list[0].outside ? !x.outside : true);
  const nearest = Math.min(...rivals.map((x) => dist(x.q)));
  check(`${label}: the solid arm is the nearest solution`, dist(list[0].q) <= nearest + 1e-12 &&
        Math.abs(dist(list[0].q) - list[0].distance) < 1e-9,
        `${dist(list[0].q).toFixed(4)} rad from the previous state, the others from ${list.slice(1).map((x) => dist(x.q).toFixed(2)).join(' ')}`);
}

try {
  // ---- load ----
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction('window.ikState && window.ikState.ready', { timeout: 20000 });
  const wall = Date.now() - t0;
  const first = await state();
  check(`page loads and draws its first frame in < ${LOAD_MS} ms`, first.loadMs < LOAD_MS,
        `${first.loadMs.toFixed(0)} ms from navigation to the first frame (${wall} ms from the test's request)`);
  fs.mkdirSync(SHOTS, { recursive: true });

  // ---- scene 1: the analytic limb ----
  await page.evaluate(() => ikTest.setScene('limb'));
  await frames();
  let s = await state();
  check('limb: converged at the start', s.status === 'converged' && s.maxPixelError < PIXEL, s.status);
  await drag('limb', 'wrist', -60, -10);
  await drag('limb', 'pole', 150, -20);
  s = await drag('limb', 'wrist', 30, 40);
  // the pole swings the elbow about the shoulder-wrist line; the wrist stays where it is
  const wrist = s.effectors.wrist, elbow = s.jointScreens[1];
  s = await drag('limb', 'pole', -220, -120);
  const px = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  check('limb: the pole moves the elbow, not the wrist', px(s.effectors.wrist, wrist) < PIXEL && px(s.jointScreens[1], elbow) > 5,
        `the wrist moved ${px(s.effectors.wrist, wrist).toFixed(3)} px, the elbow ${px(s.jointScreens[1], elbow).toFixed(1)} px`);
  await page.screenshot({ path: path.join(SHOTS, 'limb.png') });

  // ---- scene 2: the robot arm, each solver ----
  for (const method of ['dls', 'sdls', 'ccd', 'arm', 'fabrik', 'closed']) {
    await page.evaluate(async (m) => { await ikTest.setScene('arm'); await ikTest.reset(); await ikTest.setMethod(m); }, method);
    await frames();
    s = await state();
    check(`arm ${method}: converged at the start`, s.status === 'converged', s.status);
    await drag(`arm-${method}`, 'flange', -80, 30);
    s = await drag(`arm-${method}`, 'flange', 60, -70);
    check(`arm ${method}: the joints' limit margins are shown`, s.limits.length === 7 && s.limits.every((v) => v >= 0 && v <= 0.5),
          JSON.stringify(s.limits.map((v) => +v.toFixed(3))));
    if (method === 'closed' || method === 'arm')
      check(`arm ${method}: exact after the drags`, s.status === 'converged', s.status);
  }
  // low and near the base: the elbow folds to within 1% of its limit, drawn red; lower still,
  // the solve stops at the limit (stalled) and no joint passes its limit
  await page.evaluate(async () => {
    await ikTest.setMethod('dls');
    await ikTest.reset();
    const [x, y, z] = ikState.targets.flange.model;
    for (let k = 1; k <= 10; k++) await ikTest.setTarget('flange', [x + (0.4 - x) * k / 10, y * (1 - k / 10), z + (0.1 - z) * k / 10]);
  });
  s = await state();
  const red = (c) => parseInt(c.slice(1, 3), 16) > 0xc0 && parseInt(c.slice(3, 5), 16) < 0x80;
  check('arm: a joint near its limit is counted and drawn red', s.status === 'converged' && s.jointsNearLimit >= 1 &&
        s.limits.every((v, k) => (v < 0.02 ? red(s.jointColors[k]) : v < 0.1 || !red(s.jointColors[k]))),
        `${s.status}, limits ${JSON.stringify(s.limits.map((v) => +v.toFixed(3)))}, colours ${s.jointColors.join(' ')}`);
  await page.screenshot({ path: path.join(SHOTS, 'arm.png') });
  s = await page.evaluate(() => ikTest.setTarget('flange', [0.3, 0, 0.2]).then((x) => JSON.parse(JSON.stringify(x))));
  check('arm: a target past a limit stops at it, every joint within its range', s.status !== 'converged' &&
        Math.min(...s.limits) >= 0 && Math.min(...s.limits) < 1e-9, `${s.status}, smallest margin ${Math.min(...s.limits)}`);
  // a target out of reach: not converged, said so
  s = await page.evaluate(() => ikTest.setTarget('flange', [2, 0, 0.5]).then((x) => JSON.parse(JSON.stringify(x))));
  check('arm: a target out of reach is reported, not converged', s.status !== 'converged', s.status);
  await page.evaluate(() => ikTest.reset());

  // ---- the UR5e: every closed-form solution ----
  await page.evaluate(() => ikTest.setScene('ur5e'));
  await frames();
  s = await state();
  check('ur5e: converged at the start', s.status === 'converged' && s.maxPixelError < PIXEL, s.status);
  checkSolutions('ur5e at the start', s);
  s = await drag('ur5e', 'flange', -70, 40);
  checkSolutions('ur5e after a drag', s);
  s = await page.evaluate(() => ikTest.rotate([1, 0, 0], 30).then((x) => JSON.parse(JSON.stringify(x))));
  check('ur5e: the flange target turned, converged', s.status === 'converged' && s.maxPixelError < PIXEL &&
        Math.abs(s.urRotation[3]) < 0.99, `${s.status}, rotation ${s.urRotation.map((v) => v.toFixed(3))}`);
  checkSolutions('ur5e turned', s);
  await page.keyboard.press('q'); // (a key turns it 15 degrees about the vertical)
  await frames();
  const turned = s.urRotation;
  s = await state();
  check('ur5e: the key Q turns the flange target, converged', s.status === 'converged' &&
        s.urRotation.some((v, k) => Math.abs(v - turned[k]) > 0.01), `${s.status}, rotation ${s.urRotation.map((v) => v.toFixed(3))}`);
  checkSolutions('ur5e turned by a key', s);
  s = await drag('ur5e', 'flange', 60, -50);
  checkSolutions('ur5e turned, after a drag', s);
  // as shipped (+-360 degrees): every answer with its whole-turn equivalents, each drawn once
  s = await page.evaluate(() => ikTest.setRanges('full').then((x) => JSON.parse(JSON.stringify(x))));
  check('ur5e +-360: whole-turn equivalents listed, each answer drawn once', s.urListed > s.urSolutions.length,
        `${s.urListed} listed, ${s.urSolutions.length} drawn`);
  checkSolutions('ur5e +-360', s);
  s = await drag('ur5e-360', 'flange', -40, -30);
  checkSolutions('ur5e +-360 after a drag', s);
  // the elbow limited to 0 .. 180 degrees: the answers with it outside that range flagged outside
  // (and only those), the solid arm within the limits
  s = await page.evaluate(() => ikTest.setRanges('elbow').then((x) => JSON.parse(JSON.stringify(x))));
  const flaggedRight = (x) => (x.outside !== 0) === (x.q[2] < -1e-9 || x.q[2] > Math.PI + 1e-9) &&
                              (x.outside === 0) === ((x.flags & 1) === 1);
  const checkElbow = (label) => check(`${label}: exactly the solutions with the elbow outside 0 .. 180 flagged outside, the solid arm within`,
    s.status === 'converged' && s.urSolutions.some((x) => x.outside) && s.urSolutions.every(flaggedRight) && s.urSolutions[0].outside === 0,
    s.urSolutions.map((x) => `${(x.q[2] * 180 / Math.PI).toFixed(0)}:${x.outside}`).join(' '));
  checkElbow('ur5e elbow 0..180');
  checkSolutions('ur5e elbow 0..180', s);
  s = await drag('ur5e', 'flange', 40, 30);
  checkElbow('ur5e elbow 0..180 after a drag');
  checkSolutions('ur5e elbow 0..180 after a drag', s);
  await page.screenshot({ path: path.join(SHOTS, 'ur5e.png') });
  s = await page.evaluate(() => ikTest.setRanges('half').then((x) => JSON.parse(JSON.stringify(x))));
  // a wrist-singular pose (joint 5 at 0): exactly the solutions with joint 5 at 0 flagged wrist
  // singular, every joint value finite
  s = await page.evaluate(() => ikTest.singularPose().then((x) => JSON.parse(JSON.stringify(x))));
  check('ur5e: a wrist-singular pose, exactly the solutions with joint 5 at 0 flagged wrist singular, finite',
        s.urSolutions.some((x) => x.flags & 8) && s.urSolutions.every((x) => ((x.flags & 8) !== 0) === (Math.abs(Math.sin(x.q[4])) < 1e-9)) &&
        s.urSolutions.every((x) => x.q.every(Number.isFinite)),
        s.urSolutions.map((x) => `${(x.q[4] * 180 / Math.PI).toFixed(0)}:${x.flags}`).join(' '));
  checkSolutions('ur5e wrist singular', s);
  // out of reach: no solution, said so, the arm kept
  const kept = s.jointScreens;
  s = await page.evaluate(() => ikTest.setTarget('flange', [1.5, 0, 0.5]).then((x) => JSON.parse(JSON.stringify(x))));
  check('ur5e: a target out of reach has 0 solutions, reported unreachable, the arm kept',
        s.status === 'unreachable' && s.urSolutions.length === 0 && JSON.stringify(s.jointScreens) === JSON.stringify(kept),
        `${s.status}, ${s.urSolutions.length} solutions`);
  // a drag with the mouse out of reach (to the top right corner; the UR5e reaches 0.85 m): 0
  // solutions, no error
  await page.evaluate(() => ikTest.reset());
  const [fx, fy] = (await state()).targets.flange.screen;
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) {
    await page.mouse.move(fx + ((WIDTH - 10 - fx) * i) / 6, fy + ((10 - fy) * i) / 6);
    await frames(1);
  }
  await page.mouse.up();
  await frames(2);
  s = await state();
  const far = Math.hypot(...s.targets.flange.model);
  check('ur5e: a drag out of reach has 0 solutions, reported unreachable, every drawn joint finite',
        far > 0.9 && s.status === 'unreachable' && s.urSolutions.length === 0 && s.jointScreens.flat().every(Number.isFinite),
        `target ${far.toFixed(2)} m from the base, ${s.status}, ${s.urSolutions.length} solutions`);
  await page.evaluate(() => ikTest.reset());

  // ---- scene 3: the humanoid ----
  await page.evaluate(() => ikTest.setScene('humanoid'));
  await frames();
  s = await state();
  check('humanoid: converged at the start', s.status === 'converged' && s.maxPixelError < PIXEL, s.status);
  await drag('humanoid', 'left hand', 60, -50);
  await drag('humanoid', 'right hand', -70, 40);
  await drag('humanoid', 'look-at', 200, 40);
  await drag('humanoid', 'left foot', 25, 10);
  await drag('humanoid', 'right foot', -20, -12);
  // the same with the page's own drag hook (synthetic pointer events)
  const to = await page.evaluate(() => ikTest.targetScreen('left hand').map((v, k) => v + [-40, 30][k]));
  s = await page.evaluate(async (p) => JSON.parse(JSON.stringify(await ikTest.drag('left hand', p))), to);
  const off = Math.hypot(s.targets['left hand'].screen[0] - to[0], s.targets['left hand'].screen[1] - to[1]);
  check('humanoid: ikTest.drag moves the left hand where asked, converged, within a pixel',
        off < PIXEL && s.status === 'converged' && s.maxPixelError < PIXEL,
        `${off.toFixed(3)} px from where asked, ${s.status}, ${s.maxPixelError.toFixed(4)} px`);
  await page.screenshot({ path: path.join(SHOTS, 'humanoid.png') });

  // a press away from every target turns the view, and moves no target
  const targetsBefore = JSON.stringify((await state()).targets);
  await page.mouse.move(WIDTH - 150, HEIGHT - 120);
  await page.mouse.down();
  await page.mouse.move(WIDTH - 250, HEIGHT - 100, { steps: 5 });
  await page.mouse.up();
  await frames();
  s = await state();
  const modelsBefore = Object.values(JSON.parse(targetsBefore)).map((t) => t.model.join());
  check('a drag away from the targets turns the view and moves no target',
        JSON.stringify(Object.values(s.targets).map((t) => t.model.join())) === JSON.stringify(modelsBefore) &&
        Object.values(s.targets).some((t, k) => t.screen[0] !== Object.values(JSON.parse(targetsBefore))[k].screen[0]));
  check('no error on the page', errors.length === 0, errors.join(' | '));

  // ---- figures ----
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const phases = Object.entries(first.loadPhases).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
  console.log(`load: ${first.loadMs.toFixed(0)} ms to the first frame (${wall} ms as the test saw it); ms from the navigation: ${phases}`);
  for (const [key, list] of Object.entries(times)) {
    const us = list.map((x) => x[0]), its = list.map((x) => x[1]);
    console.log(`solve time while dragging, ${key}: median ${median(us).toFixed(2)} us, largest ${Math.max(...us).toFixed(2)} us; iterations median ${median(its)}, largest ${Math.max(...its)} (${list.length} solves)`);
  }
  console.log(`screenshots: ${SHOTS}/{limb,arm,ur5e,humanoid}.png`);
} catch (e) {
  check('the test ran to its end', false, e.stack);
}
clearTimeout(deadline);
await browser.close();
server.close();
fs.rmSync(profile, { recursive: true, force: true });
finish(failed ? 1 : 0);
