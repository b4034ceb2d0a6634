// ik.h in the browser: the scenes of web/ik_web.c drawn with three.js. A target follows the
// mouse on the plane through it that faces the camera; each animation frame in which a target
// moved solves once (and again many times from the same start, to time it), then draws the
// joint frames the solve left. window.ikState holds what the page shows, for tests;
// window.ikTest moves targets and waits for frames (docs/web.md).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const STATUS = ['converged', 'max iterations', 'stalled', 'unreachable', 'limited'];
const METHODS = { dls: 0, sdls: 1, ccd: 2, arm: 3, fabrik: 4, closed: 5 };
const METHOD_LABELS = { dls: 'DLS', sdls: 'SDLS', ccd: 'CCD', arm: 'ik_arm_solve', fabrik: 'FABRIK (position)',
  closed: 'closed form at the swivel' };
// the closed forms' flags (ik_closed_flag) and a solution's size in ikw_ur_solutions (ik_web.c)
const CLOSED = { within: 1, shoulder: 2, elbow: 4, wrist: 8 };
const UR_SHOWN_SIZE = 4 + 6 + 7 * 7;
const TURN_STEP = Math.PI / 12; // a key press turns the UR5e's flange target by 15 degrees
const RED = 0xe8543a, BLUE = 0x3a7bd5, YELLOW = 0xf2b134, MAGENTA = 0xb03a8c;

// Each scene: its index in ik_web.c, whether its model frame is z up, its targets (an effector
// each, or none: the pole), the camera and the point it looks at (model frame), the radius of
// the targets' balls (metres), the solver's name.
const SCENES = {
  limb: {
    id: 0, zUp: true, solver: 'ik_limb_solve_prepared',
    targets: [{ name: 'wrist', color: RED, effector: 0 }, { name: 'pole', color: BLUE }],
    camera: [2.2, -0.95, 1.7], look: [0.2, 0.15, 1.0], size: 0.045,
  },
  arm: {
    id: 1, zUp: true, solver: 'DLS',
    targets: [{ name: 'flange', color: RED, effector: 0 }],
    camera: [1.7, -1.6, 1.25], look: [0.25, 0.0, 0.45], size: 0.05,
  },
  humanoid: {
    id: 2, zUp: false, solver: 'ik_skeleton_solve (DLS)',
    targets: [
      { name: 'left foot', color: BLUE, effector: 0 }, { name: 'right foot', color: BLUE, effector: 1 },
      { name: 'left hand', color: RED, effector: 2 }, { name: 'right hand', color: RED, effector: 3 },
      { name: 'look-at', color: YELLOW, effector: 4, aim: true },
    ],
    camera: [1.9, 1.55, 3.0], look: [0.1, 0.9, 0.5], size: 0.045,
  },
  ur5e: {
    id: 3, zUp: true, solver: 'ik_closed_form_solve',
    targets: [{ name: 'flange', color: RED, effector: 0 }],
    camera: [0.25, -1.55, 0.95], look: [-0.5, -0.05, 0.28], size: 0.045,
  },
};

const state = (window.ikState = {
  ready: false, loadMs: 0, scene: 'limb', method: 'dls', solver: '', status: '', statusCode: 0,
  iterations: 0, us: 0, positionError: 0, rotationError: 0, solves: 0, frames: 0,
  targets: {}, effectors: {}, pixelErrors: {}, maxPixelError: 0,
  effectorScreen: [0, 0], targetScreen: [0, 0], jointScreens: [], limits: [], jointsNearLimit: 0,
  urSolutions: [], urListed: 0, urBranches: 0, urPrevious: [], urRanges: 'half', urRotation: [],
  error: null, loadPhases: { script: performance.now() }, // (ms from the navigation)
});
window.addEventListener('error', (e) => {
  state.error = String(e.message);
  const loading = document.getElementById('loading');
  if (loading) loading.textContent = `ik.h could not start: ${state.error}`;
});

// ---- the WebAssembly module -------------------------------------------------------------------
const response = await fetch('./ik_web.wasm');
if (!response.ok) throw new Error(`ik_web.wasm: HTTP ${response.status}`);
const wasm = await WebAssembly.instantiate(await response.arrayBuffer(), {});
const ik = wasm.instance.exports;
state.loadPhases.wasm = performance.now();
ik._initialize();
if (ik.ikw_init() !== 0) throw new Error('ik_web: a scene failed to build');
const f64 = (ptr, n) => new Float64Array(ik.memory.buffer, ptr, n);
const i32 = (ptr, n) => new Int32Array(ik.memory.buffer, ptr, n);
function report(id) {
  const r = f64(ik.ikw_report(id), 8);
  return { status: r[0], iterations: r[1], posErr: r[2], rotErr: r[3], dof: r[4], joints: r[5],
           effectors: r[6], targets: r[7] };
}

// ---- three.js: renderer, camera, lights, ground ----------------------------------------------
const canvas = document.getElementById('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio);
renderer.shadowMap.enabled = true;
state.loadPhases.renderer = performance.now();
const world = new THREE.Scene();
world.background = new THREE.Color(0xe9edf2);
const camera = new THREE.PerspectiveCamera(40, 1, 0.05, 50);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = false;
world.add(new THREE.HemisphereLight(0xffffff, 0x8a96a3, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
sun.position.set(2.5, 5, 3);
sun.castShadow = true;
sun.shadow.mapSize.set(1024, 1024);
Object.assign(sun.shadow.camera, { left: -2.5, right: 2.5, top: 2.5, bottom: -2.5, near: 0.5, far: 12 });
world.add(sun);
const ground = new THREE.Mesh(new THREE.PlaneGeometry(8, 8),
  new THREE.MeshStandardMaterial({ color: 0xd5dbe2, roughness: 1 }));
ground.rotation.x = -Math.PI / 2;
ground.receiveShadow = true;
world.add(ground);
const grid = new THREE.GridHelper(8, 32, 0xa9b3be, 0xbfc7d0);
grid.position.y = 0.001;
world.add(grid);

// ---- drawing helpers --------------------------------------------------------------------------
const UP = new THREE.Vector3(0, 1, 0);
const boneGeometry = new THREE.CylinderGeometry(1, 1, 1, 16).translate(0, 0.5, 0);
const ballGeometry = new THREE.SphereGeometry(1, 24, 16);
const material = (color, extra = {}) => new THREE.MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.1, ...extra });

function mesh(geometry, mat, radius) {
  const m = new THREE.Mesh(geometry, mat);
  m.scale.setScalar(radius);
  m.castShadow = true;
  return m;
}
// A cylinder of radius r from a to b (model frame).
function placeBone(m, a, b, r) {
  const d = new THREE.Vector3().subVectors(b, a);
  const len = d.length();
  m.position.copy(a);
  m.scale.set(r, Math.max(len, 1e-6), r);
  if (len > 1e-9) m.quaternion.setFromUnitVectors(UP, d.divideScalar(len));
}

// ---- a scene's view: its root (model frame), bones, joints, targets, effectors ----------------
class View {
  constructor(name, spec) {
    this.name = name;
    this.spec = spec;
    this.id = spec.id;
    const r = report(this.id);
    this.joints = r.joints;
    this.effectors = r.effectors;
    this.targetCount = r.targets;
    this.parents = Array.from(i32(ik.ikw_parents(this.id), this.joints));
    this.root = new THREE.Group();
    if (spec.zUp) this.root.rotation.x = -Math.PI / 2;
    this.root.updateMatrixWorld(true);
    this.targetMeshes = spec.targets.map((t) => {
      const m = mesh(ballGeometry, material(t.color, { transparent: true, opacity: 0.5, emissive: t.color, emissiveIntensity: 0.3, depthWrite: false }), spec.size);
      m.castShadow = false;
      this.root.add(m);
      return m;
    });
    this.effectorMeshes = spec.targets.filter((t) => t.effector !== undefined).map(() => {
      const m = mesh(ballGeometry, material(0x1d2733), 0.011);
      m.castShadow = false;
      this.root.add(m);
      return m;
    });
    if (name === 'limb') this.buildLimb();
    if (name === 'arm' || name === 'ur5e') this.buildArm();
    if (name === 'ur5e') this.buildGhosts();
    if (name === 'humanoid') this.buildHumanoid();
  }
  bone(color, r) {
    const m = mesh(boneGeometry, material(color), 1);
    m.userData.r = r;
    this.root.add(m);
    return m;
  }
  ball(color, r) {
    const m = mesh(ballGeometry, material(color), r);
    this.root.add(m);
    return m;
  }
  dashedLine(color) {
    const g = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]);
    const l = new THREE.Line(g, new THREE.LineDashedMaterial({ color, dashSize: 0.03, gapSize: 0.02 }));
    this.root.add(l);
    return l;
  }
  buildLimb() {
    // a torso and head for scale (the right shoulder at (0.2, 0, 1.4), facing +y)
    const body = material(0xc9d1da, { transparent: true, opacity: 0.8 });
    const torso = new THREE.Mesh(new THREE.BoxGeometry(0.3, 0.16, 0.55), body);
    torso.position.set(0, 0, 1.17);
    torso.castShadow = true;
    const head = mesh(ballGeometry, body, 0.09);
    head.position.set(0, 0, 1.6);
    this.root.add(torso, head);
    this.upper = this.bone(0x5b7fa6, 0.03);
    this.lower = this.bone(0x5b7fa6, 0.025);
    this.jointBalls = [0.04, 0.035, 0.022].map((r) => this.ball(0x2c3e50, r));
    this.poleLine = this.dashedLine(BLUE);
    const stand = new THREE.Mesh(new THREE.CylinderGeometry(0.025, 0.025, 0.9, 16), body);
    stand.rotation.x = Math.PI / 2;
    stand.position.set(0, 0, 0.45);
    const foot = new THREE.Mesh(new THREE.CylinderGeometry(0.16, 0.18, 0.03, 32), body);
    foot.rotation.x = Math.PI / 2;
    foot.position.set(0, 0, 0.015);
    this.root.add(stand, foot);
  }
  buildArm() {
    const n = this.joints, r = this.name === 'ur5e' ? 0.75 : 1; // (the UR5e is smaller)
    const base = new THREE.Mesh(new THREE.CylinderGeometry(0.12 * r, 0.14 * r, 0.06, 32), material(0x4d5660));
    base.rotation.x = Math.PI / 2;
    base.position.z = 0.03;
    base.castShadow = true;
    this.root.add(base);
    this.links = [];
    for (let i = 0; i <= n; i++) this.links.push(this.bone(0xf2f2f0, (i === n ? 0.02 : 0.04) * r));
    this.jointBalls = [];
    for (let i = 0; i < n; i++) this.jointBalls.push(this.ball(0x2ecc71, (i < n - 1 ? 0.055 : 0.035) * r));
    const axes = new THREE.AxesHelper(0.1);
    this.flangeAxes = axes;
    this.root.add(axes);
  }
  // the UR5e's other solutions, translucent (blue within the limits, red outside), and the
  // flange target's orientation (its axes, longer than the flange's)
  buildGhosts() {
    this.ghosts = [];
    for (let k = 1; k < 8; k++) {
      const mat = material(BLUE, { transparent: true, opacity: 0.22, depthWrite: false });
      const bones = [], balls = [];
      for (let i = 0; i <= this.joints; i++) bones.push(mesh(boneGeometry, mat, 1));
      for (let i = 0; i < this.joints; i++) balls.push(mesh(ballGeometry, mat, 0.03));
      const group = new THREE.Group();
      group.add(...bones, ...balls);
      group.traverse((m) => { m.castShadow = false; });
      this.root.add(group);
      this.ghosts.push({ group, bones, balls, mat });
    }
    this.targetAxes = new THREE.AxesHelper(0.16);
    this.root.add(this.targetAxes);
  }
  buildHumanoid() {
    this.skel = [];
    for (let i = 4; i < this.joints; i++) this.skel.push({ i, m: this.bone(i < 9 ? 0x7d8a96 : 0x5b7fa6, 0.028) });
    // hands and feet: the wrist to the palm, the ankle to the sole
    this.ends = [[13, 2], [18, 3], [21, 0], [25, 1]].map(([j, e]) => ({ j, e, m: this.bone(0x5b7fa6, 0.022) }));
    this.head = this.ball(0xd9c2a7, 0.1);
    this.pelvis = this.ball(0x7d8a96, 0.06);
    this.gaze = this.dashedLine(0xc9900c);
  }
  frame(k) {
    const f = this.f;
    return { p: new THREE.Vector3(f[7 * k], f[7 * k + 1], f[7 * k + 2]),
             q: new THREE.Quaternion(f[7 * k + 3], f[7 * k + 4], f[7 * k + 5], f[7 * k + 6]) };
  }
  target(k) {
    const t = f64(ik.ikw_targets(this.id), 3 * this.targetCount);
    return new THREE.Vector3(t[3 * k], t[3 * k + 1], t[3 * k + 2]);
  }
  // The point an effector is drawn at: its frame's origin; an aim's, the point along its axis as
  // far from its origin as the target (on the target when the aim is met).
  effectorPoint(t) {
    const e = this.frame(this.joints + t.effector);
    if (!t.aim) return e.p;
    const target = this.target(this.spec.targets.indexOf(t));
    const axis = new THREE.Vector3(0, 0, 1).applyQuaternion(e.q);
    return e.p.clone().addScaledVector(axis, target.distanceTo(e.p));
  }
  update() {
    this.f = f64(ik.ikw_frames(this.id), 7 * (this.joints + this.effectors));
    this.spec.targets.forEach((t, k) => this.targetMeshes[k].position.copy(this.target(k)));
    this.spec.targets.filter((t) => t.effector !== undefined).forEach((t, k) => this.effectorMeshes[k].position.copy(this.effectorPoint(t)));
    if (this.name === 'limb') this.updateLimb();
    if (this.name === 'arm' || this.name === 'ur5e') this.updateArm();
    if (this.name === 'ur5e') this.updateGhosts();
    if (this.name === 'humanoid') this.updateHumanoid();
  }
  updateLimb() {
    const s = this.frame(0).p, e = this.frame(1).p, w = this.frame(2).p;
    placeBone(this.upper, s, e, 0.03);
    placeBone(this.lower, e, w, 0.025);
    [s, e, w].forEach((p, k) => this.jointBalls[k].position.copy(p));
    this.setLine(this.poleLine, e, this.target(1));
  }
  updateArm() {
    const n = this.joints;
    let a = new THREE.Vector3(0, 0, 0.06);
    for (let i = 0; i <= n; i++) {
      const b = this.frame(i).p;
      placeBone(this.links[i], a, b, this.links[i].userData.r);
      a = b;
    }
    const limits = f64(ik.ikw_limits(this.id), n);
    state.limits = Array.from(limits);
    state.jointsNearLimit = state.limits.filter((v) => v < 0.05).length; // (5% of the range)
    const free = new THREE.Color(0x2ecc71), near = new THREE.Color(0xe74c3c), mid = new THREE.Color(0xf1c40f);
    for (let i = 0; i < n; i++) {
      const m = this.jointBalls[i];
      m.position.copy(this.frame(i).p);
      const x = Math.min(limits[i] / 0.2, 1); // 0 at a limit, 1 from a fifth of the range in
      m.material.color.copy(x < 0.5 ? near.clone().lerp(mid, x * 2) : mid.clone().lerp(free, x * 2 - 1));
    }
    state.jointColors = this.jointBalls.map((m) => `#${m.material.color.getHexString()}`);
    el('near').textContent = `${state.jointsNearLimit} of ${n}`;
    const fl = this.frame(n);
    this.flangeAxes.position.copy(fl.p);
    this.flangeAxes.quaternion.copy(fl.q);
  }
  // The UR5e's solutions (ikw_ur_solutions: the nearest first, then one per closed-form answer):
  // the first is the arm drawn solid (its state), the others drawn as ghosts.
  solutions() {
    const head = f64(ik.ikw_ur_solutions(), 3);
    const all = f64(ik.ikw_ur_solutions(), 3 + head[0] * UR_SHOWN_SIZE);
    return { listed: head[1], branches: head[2], list: Array.from({ length: head[0] }, (_, k) => {
      const o = 3 + k * UR_SHOWN_SIZE;
      const frames = Array.from({ length: 7 }, (_, j) => new THREE.Vector3(all[o + 10 + 7 * j], all[o + 11 + 7 * j], all[o + 12 + 7 * j]));
      return { branch: all[o], flags: all[o + 1], outside: all[o + 2], distance: all[o + 3],
               q: Array.from(all.subarray(o + 4, o + 10)), frames };
    }) };
  }
  updateGhosts() {
    const sol = this.solutions();
    this.ghosts.forEach((g, k) => {
      const s = sol.list[k + 1];
      g.group.visible = Boolean(s);
      if (!s) return;
      g.mat.color.setHex(s.outside ? MAGENTA : BLUE);
      let a = new THREE.Vector3(0, 0, 0.06);
      s.frames.forEach((b, i) => {
        placeBone(g.bones[i], a, b, i === 6 ? 0.012 : 0.022);
        if (i < 6) g.balls[i].position.copy(b);
        a = b;
      });
    });
    const r = f64(ik.ikw_ur_rotation(), 4);
    this.targetAxes.position.copy(this.target(0));
    this.targetAxes.quaternion.set(r[0], r[1], r[2], r[3]);
    state.urRotation = Array.from(r);
    state.urListed = sol.listed;
    state.urBranches = sol.branches;
    state.urPrevious = Array.from(f64(ik.ikw_ur_previous(), 6));
    this.solutionList = sol.list;
    const flags = (s) => [s.outside ? 'outside limits' : 'within limits',
      ...Object.entries(CLOSED).filter(([k, v]) => k !== 'within' && s.flags & v).map(([k]) => `${k} singular`)].join(', ');
    el('count').textContent = sol.listed > sol.list.length ? `${sol.list.length} (${sol.listed} with whole turns)` : sol.list.length;
    el('solutions').innerHTML = (sol.list.length ? '<div>joint angles (degrees)</div>' : '') +
      sol.list.map((s, k) => `<div class="${s.outside ? 'out' : ''}">${k ? 'ghost' : '<b>solid</b>'} ` +
      `${s.q.map((v) => Math.round(v * 180 / Math.PI)).join(' ')}: ${flags(s)}</div>`).join('');
  }
  updateHumanoid() {
    for (const { i, m } of this.skel) placeBone(m, this.frame(this.parents[i]).p, this.frame(i).p, m.userData.r);
    for (const { j, e, m } of this.ends) placeBone(m, this.frame(j).p, this.frame(this.joints + e).p, m.userData.r);
    const h = this.frame(8);
    this.head.position.copy(new THREE.Vector3(0, 0.09, 0.02).applyQuaternion(h.q).add(h.p));
    this.pelvis.position.copy(this.frame(3).p);
    this.setLine(this.gaze, this.frame(this.joints + 4).p, this.target(4));
  }
  setLine(l, a, b) {
    l.geometry.setFromPoints([a, b]);
    l.computeLineDistances();
  }
}

// warm the solvers' code up (the browser compiles hot WebAssembly functions again, faster):
// each scene solved many times from its start, the arm with each method from a moved target
for (const id of [0, 2, 3]) {
  ik.ikw_solve(id, 1, 0);
  ik.ikw_solve(id, 300, 1);
  ik.ikw_reset(id);
}
for (let m = 4; m >= 0; m--) {
  const t = f64(ik.ikw_targets(1), 3);
  ik.ikw_set_method(m);
  ik.ikw_set_target(1, 0, t[0] + 0.03, t[1] + 0.03, t[2]);
  ik.ikw_solve(1, 1, 0);
  ik.ikw_solve(1, 50, 1);
  ik.ikw_reset(1);
}

state.loadPhases.warm = performance.now();
const views = {};
for (const [name, spec] of Object.entries(SCENES)) views[name] = new View(name, spec);
let view = null;
let dirty = true; // a target moved: solve
let redraw = true; // the view changed: draw
controls.addEventListener('change', () => { redraw = true; });

// ---- screen coordinates (CSS pixels of the page, as mouse events give them) -------------------
// A point of the scene's model frame on the screen.
function toScreen(v) {
  const p = view.root.localToWorld(v.clone()).project(camera);
  const rect = canvas.getBoundingClientRect();
  return [rect.left + (p.x + 1) / 2 * rect.width, rect.top + (1 - p.y) / 2 * rect.height];
}

// ---- the panel --------------------------------------------------------------------------------
const el = (id) => document.getElementById(id);
function setScene(name) {
  if (view) world.remove(view.root);
  view = views[name];
  state.scene = name;
  world.add(view.root);
  camera.position.copy(view.root.localToWorld(new THREE.Vector3(...view.spec.camera)));
  controls.target.copy(view.root.localToWorld(new THREE.Vector3(...view.spec.look)));
  controls.update();
  el('scene').value = name;
  el('method-row').style.display = name === 'arm' ? '' : 'none';
  el('near-row').style.display = name === 'arm' || name === 'ur5e' ? '' : 'none';
  for (const id of ['ranges-row', 'count-row', 'solutions', 'turn-help', 'singular']) el(id).style.display = name === 'ur5e' ? '' : 'none';
  el('error-label').textContent = name === 'ur5e' ? 'largest error' : 'position error';
  el('fabrik-help').style.display = name === 'arm' && state.method === 'fabrik' ? '' : 'none';
  el('legend').innerHTML = view.spec.targets.map((t) => `<span class="item"><span class="swatch" style="background:#${t.color.toString(16).padStart(6, '0')}"></span>${t.name}</span>`).join(' ') +
    (name === 'ur5e' ? ' <span class="item"><span class="swatch" style="background:#3a7bd5"></span>other solutions</span>' +
      ' <span class="item"><span class="swatch" style="background:#b03a8c"></span>outside the limits</span>' : '') +
    (name === 'arm' || name === 'ur5e' ? '<br>joints: <span class="swatch" style="background:#2ecc71"></span>free <span class="swatch" style="background:#e74c3c"></span>at a limit' : '');
  dirty = true;
}
function setMethod(name) {
  ik.ikw_set_method(METHODS[name]);
  state.method = name;
  el('method').value = name;
  SCENES.arm.solver = METHOD_LABELS[name];
  el('fabrik-help').style.display = name === 'fabrik' ? '' : 'none';
  dirty = true;
}
el('scene').addEventListener('change', (e) => setScene(e.target.value));
el('method').addEventListener('change', (e) => setMethod(e.target.value));
el('reset').addEventListener('click', () => { ik.ikw_reset(view.id); dirty = true; });
const RANGES = { half: 0, full: 1, elbow: 2 }; // (ikw_set_ur_ranges)
function setRanges(name) {
  ik.ikw_set_ur_ranges(RANGES[name]);
  state.urRanges = name;
  el('ranges').value = name;
  dirty = true;
}
el('ranges').addEventListener('change', (e) => setRanges(e.target.value));
// a pose where the UR5e's wrist is singular: joint 5 at 0 puts axes 4 and 6 in line
const WRIST_SINGULAR = [0.3, -1.8, 1.6, -1.37, 0, 0.4];
function singularPose() {
  ik.ikw_ur_target_at(...WRIST_SINGULAR);
  dirty = true;
}
el('singular').addEventListener('click', singularPose);
// the UR5e's flange target turned by keys: Q/E about the vertical, W/S and A/D tilt it
const TURN_KEYS = { q: [0, 0, 1], e: [0, 0, -1], w: [1, 0, 0], s: [-1, 0, 0], a: [0, 1, 0], d: [0, -1, 0] };
function rotateTarget(axis, angle) {
  ik.ikw_ur_rotate_target(...axis, angle);
  dirty = true;
}
window.addEventListener('keydown', (e) => {
  const axis = TURN_KEYS[e.key.toLowerCase()];
  if (view.name === 'ur5e' && axis && e.target.tagName !== 'SELECT') rotateTarget(axis, TURN_STEP);
});

// ---- dragging a target --------------------------------------------------------------------------
const raycaster = new THREE.Raycaster();
const dragPlane = new THREE.Plane();
let drag = null; // { k, offset }
function ray(clientX, clientY) {
  const rect = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2((clientX - rect.left) / rect.width * 2 - 1, -(clientY - rect.top) / rect.height * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  return raycaster.ray;
}
function moveTarget(k, point) {
  const p = view.root.worldToLocal(point.clone());
  ik.ikw_set_target(view.id, k, p.x, p.y, p.z);
  dirty = true;
}
// capture on the window: a press on a target never reaches OrbitControls
window.addEventListener('pointerdown', (e) => {
  if (e.target !== canvas) return;
  ray(e.clientX, e.clientY);
  const hit = raycaster.intersectObjects(view.targetMeshes, false)[0];
  if (!hit) return;
  e.stopPropagation();
  const k = view.targetMeshes.indexOf(hit.object);
  const center = hit.object.getWorldPosition(new THREE.Vector3());
  dragPlane.setFromNormalAndCoplanarPoint(camera.getWorldDirection(new THREE.Vector3()), center);
  const onPlane = raycaster.ray.intersectPlane(dragPlane, new THREE.Vector3());
  drag = { k, offset: center.sub(onPlane ?? center) };
  if (e.isTrusted) canvas.setPointerCapture(e.pointerId); // (a synthetic pointer has none)
}, true);
window.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const p = ray(e.clientX, e.clientY).intersectPlane(dragPlane, new THREE.Vector3());
  if (p) moveTarget(drag.k, p.add(drag.offset));
}, true);
window.addEventListener('pointerup', () => { drag = null; }, true);

// ---- each frame: solve (timed) if a target moved, draw, record the state -----------------------
function solve() {
  const id = view.id;
  const timed = (n, again) => {
    const t0 = performance.now();
    ik.ikw_solve(id, n, again);
    return performance.now() - t0;
  };
  // the same solve again, from the same start, until 2 ms of them time it (the browser's clock
  // may tick by 0.1 ms)
  let n = 1, ms = timed(1, 0);
  while (ms < 2 && n < 100000) ms = timed((n *= 8), 1);
  const r = report(id);
  Object.assign(state, {
    statusCode: r.status, status: r.status >= 0 ? STATUS[r.status] : `error ${r.status}`,
    iterations: r.iterations, us: 1000 * ms / n, positionError: r.posErr, rotationError: r.rotErr,
    solver: view.spec.solver, solves: state.solves + 1,
  });
  el('solver').textContent = state.solver;
  el('status').textContent = state.status;
  el('status').className = r.status === 0 ? 'converged' : 'other';
  el('iterations').textContent = view.name === 'ur5e' ? 'none' : r.iterations;
  el('time').textContent = state.us < 10 ? `${state.us.toFixed(2)} µs` : `${state.us.toFixed(1)} µs`;
  el('error').textContent = `${(r.posErr * 1000).toExponential(1)} mm`;
}
function record() {
  state.targets = {};
  state.effectors = {};
  state.pixelErrors = {};
  let worst = 0, first = true;
  view.spec.targets.forEach((t, k) => {
    const target = toScreen(view.target(k));
    state.targets[t.name] = { model: view.target(k).toArray(), screen: target };
    if (t.effector === undefined) return;
    const eff = toScreen(view.effectorPoint(t));
    state.effectors[t.name] = eff;
    const px = Math.hypot(eff[0] - target[0], eff[1] - target[1]);
    state.pixelErrors[t.name] = px;
    worst = Math.max(worst, px);
    if (first) [state.effectorScreen, state.targetScreen, first] = [eff, target, false];
  });
  state.maxPixelError = worst;
  state.urSolutions = view.name !== 'ur5e' ? [] : view.solutionList.map((s) => {
    const flange = toScreen(s.frames[6]);
    return { branch: s.branch, flags: s.flags, outside: s.outside, distance: s.distance, q: s.q, flangeScreen: flange,
             pixelError: Math.hypot(flange[0] - state.targetScreen[0], flange[1] - state.targetScreen[1]),
             jointScreens: s.frames.slice(0, 6).map(toScreen) };
  });
  state.jointScreens = Array.from({ length: view.joints }, (_, k) => toScreen(view.frame(k).p));
}
let waiting = [];
function tick() {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || canvas.height !== Math.floor(h * renderer.getPixelRatio())) {
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    redraw = true;
  }
  if (dirty) {
    dirty = false;
    redraw = true;
    solve();
  }
  if (redraw) { // (only when a solve or the view changed: an idle page costs nothing)
    redraw = false;
    view.update();
    renderer.render(world, camera);
    record();
    state.frames++;
  }
  if (!state.ready) {
    state.ready = true;
    state.loadMs = performance.now();
    state.loadPhases.firstFrame = state.loadMs;
    el('loading').remove();
  }
  const done = waiting;
  waiting = [];
  done.forEach((f) => f());
  requestAnimationFrame(tick);
}

// ---- hooks for tests ----------------------------------------------------------------------------
const nextFrame = () => new Promise((resolve) => waiting.push(resolve));
window.ikTest = {
  scenes: Object.keys(SCENES),
  methods: Object.keys(METHODS),
  async setScene(name) { setScene(name); await nextFrame(); return state; },
  async setMethod(name) { setMethod(name); await nextFrame(); return state; },
  // a target at a point of the model frame (metres)
  async setTarget(name, xyz) {
    const k = view.spec.targets.findIndex((t) => t.name === name);
    ik.ikw_set_target(view.id, k, ...xyz);
    dirty = true;
    await nextFrame();
    return state;
  },
  async reset() { ik.ikw_reset(view.id); dirty = true; await nextFrame(); return state; },
  // the UR5e: its flange target turned by degrees about a model-frame axis; its joint ranges
  async rotate(axis, degrees) { rotateTarget(axis, degrees * Math.PI / 180); await nextFrame(); return state; },
  // (half: +-180 degrees, full: +-360, elbow: +-180 with the elbow at 0 .. 180)
  async setRanges(name) { setRanges(name); await nextFrame(); return state; },
  async singularPose() { singularPose(); await nextFrame(); return state; },
  // a drag of target `name` to the screen point to, by synthetic pointer events (a frame a move)
  async drag(name, to, steps = 6) {
    const [x, y] = state.targets[name].screen;
    const send = (type, px, py) => canvas.dispatchEvent(new PointerEvent(type, {
      clientX: px, clientY: py, bubbles: true, pointerId: 1, isPrimary: true, buttons: type === 'pointerup' ? 0 : 1 }));
    send('pointerdown', x, y);
    for (let i = 1; i <= steps; i++) {
      send('pointermove', x + (to[0] - x) * i / steps, y + (to[1] - y) * i / steps);
      await nextFrame();
    }
    send('pointerup', to[0], to[1]);
    await nextFrame();
    return state;
  },
  targetScreen: (name) => state.targets[name].screen,
  nextFrame,
};

setScene(new URLSearchParams(location.search).get('scene') ?? 'limb');
requestAnimationFrame(tick);
