// THREE.IK (npm three-ik 0.1.0, FABRIK for three.js; three 0.122, the last three.js with the
// Matrix4.getInverse it calls) on the problems bench/three_ik.c wrote: chains of n links of
// length 1/n along +y from the origin (n + 1 bones), every problem from the straight pose.
// Prints one table row per chain: the share solved to 1e-5 within 100 iterations (an iteration
// is one IK.solve(): a forward and a backward pass), the median iterations of those solved, and
// the median over problems of the time of 20 iterations from the straight pose over 20.
// Usage: node bench/three-ik/bench.mjs FILE   (lines: "n x y z", one problem each)
import { createRequire } from 'module';
import { readFileSync } from 'fs';
const require = createRequire(import.meta.url);
const THREE = require('three');
const { IK, IKChain, IKJoint } = require('three-ik');

const TOL = 1e-5, MAX_ITERATIONS = 100, TIMED = 20;

// The chain of n links in a fresh scene, its target, and a reset to the straight pose.
function makeChain(n) {
  const scene = new THREE.Object3D(), target = new THREE.Object3D(), bones = [];
  for (let i = 0; i <= n; i++) {
    const b = new THREE.Bone();
    b.position.set(0, i === 0 ? 0 : 1 / n, 0);
    (i === 0 ? scene : bones[i - 1]).add(b);
    bones.push(b);
  }
  scene.add(target);
  scene.updateMatrixWorld(true);
  const ik = new IK(), chain = new IKChain();
  for (let i = 0; i <= n; i++) chain.add(new IKJoint(bones[i]), i === n ? { target } : {});
  ik.add(chain);
  const reset = (x, y, z) => {
    for (let i = 0; i <= n; i++) {
      bones[i].position.set(0, i === 0 ? 0 : 1 / n, 0);
      bones[i].quaternion.set(0, 0, 0, 1);
    }
    target.position.set(x, y, z);
    scene.updateMatrixWorld(true);
  };
  return { ik, chain, reset };
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[(s.length - 1) >> 1] : NaN;
};

const problems = new Map();
for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
  const v = line.trim().split(/\s+/).map(Number);
  if (v.length !== 4 || v.some((x) => !Number.isFinite(x))) continue;
  if (!problems.has(v[0])) problems.set(v[0], []);
  problems.get(v[0]).push(v.slice(1));
}
for (const [n, targets] of problems) {
  const c = makeChain(n), iterations = [], ns = [];
  let solved = 0;
  for (const [x, y, z] of targets) { // the solve rate
    c.reset(x, y, z);
    for (let k = 1; k <= MAX_ITERATIONS; k++) {
      c.ik.solve();
      if (c.chain._getDistanceFromTarget() <= TOL) {
        solved++;
        iterations.push(k);
        break;
      }
    }
  }
  for (let pass = 0; pass < 2; pass++) // (the first pass warms the JIT up)
    for (const [x, y, z] of targets) {
      c.reset(x, y, z);
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < TIMED; k++) c.ik.solve();
      const t = Number(process.hrtime.bigint() - t0) / TIMED;
      if (pass === 1) ns.push(t);
    }
  console.log(`three-ik ${n} ${targets.length} ${solved} ${median(iterations)} ${median(ns).toFixed(1)}`);
}
