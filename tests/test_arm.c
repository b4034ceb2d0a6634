/* Robot-arm chains (bench/arms.h) and the pose-IK entry point ik_arm_solve(): each arm's FK at
   published poses, and a fixed set of random reachable problems per arm solved to the
   benchmark's success criterion, checked by a plain 4 x 4 matrix FK written here. */
#include "test.h"
#include "../bench/arms.h"
#include <math.h>
#include <stdlib.h>

#define PI_D 3.14159265358979323846

static unsigned char arm_scratch[1 << 15];

// ---- an FK of its own: 4 x 4 row-major matrices, double, nothing from ik.h's FK ----

static void m4_mul(const double *a, const double *b, double *out)
{
    double t[16];
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            t[i * 4 + j] = 0;
            for (k = 0; k < 4; k++)
                t[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j];
        }
    memcpy(out, t, sizeof t);
}

// The matrix of a rotation (unit quaternion x, y, z, w) and a translation.
static void m4_from_quat(double x, double y, double z, double w, double px, double py, double pz,
                         double *m)
{
    double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y - z * w), m[2] = 2 * (x * z + y * w);
    m[4] = 2 * (x * y + z * w), m[5] = 1 - 2 * (x * x + z * z), m[6] = 2 * (y * z - x * w);
    m[8] = 2 * (x * z - y * w), m[9] = 2 * (y * z + x * w), m[10] = 1 - 2 * (x * x + y * y);
    m[3] = px, m[7] = py, m[11] = pz;
    m[12] = m[13] = m[14] = 0, m[15] = 1;
}

static void m4_from_xform(ik_xform t, double *m)
{
    m4_from_quat((double)t.rot.x, (double)t.rot.y, (double)t.rot.z, (double)t.rot.w,
                 (double)t.pos.x, (double)t.pos.y, (double)t.pos.z, m);
}

// Rodrigues: rotation by angle about the unit axis (ax, ay, az).
static void m4_rotation(double ax, double ay, double az, double angle, double *m)
{
    double c = cos(angle), s = sin(angle), v = 1 - c;
    m[0] = ax * ax * v + c, m[1] = ax * ay * v - az * s, m[2] = ax * az * v + ay * s;
    m[4] = ay * ax * v + az * s, m[5] = ay * ay * v + c, m[6] = ay * az * v - ax * s;
    m[8] = az * ax * v - ay * s, m[9] = az * ay * v + ax * s, m[10] = az * az * v + c;
    m[3] = m[7] = m[11] = 0;
    m[12] = m[13] = m[14] = 0, m[15] = 1;
}

// Effector pose of a chain of revolute and fixed joints at q (double).
static void plain_fk(const ik_chain *c, const double *q, double *m)
{
    double t[16];
    int i, k = 0;
    m4_rotation(0, 0, 1, 0, m);
    for (i = 0; i < c->joint_count; i++) {
        const ik_joint *j = &c->joints[i];
        m4_from_xform(j->origin, t);
        m4_mul(m, t, m);
        if (j->type == IK_JOINT_REVOLUTE) {
            m4_rotation((double)j->axis.x, (double)j->axis.y, (double)j->axis.z, q[k++], t);
            m4_mul(m, t, m);
        }
    }
    m4_from_xform(c->tip, t);
    m4_mul(m, t, m);
}

// The protocol's test: joints within limits, every position component within tol_p and (with
// rotation) every component of the rotation vector of R_target R^T within tol_r.
static bool meets_criterion(const ik_chain *c, const ik_real *q, const double *target,
                            bool rotation, double tol_p, double tol_r)
{
    double qd[ARM_MAX_JOINTS], m[16], e[9], v[3], s, cs, f;
    int i, k;
    for (i = 0; i < c->joint_count; i++) {
        if (!(q[i] >= c->joints[i].lo && q[i] <= c->joints[i].hi))
            return false;
        qd[i] = (double)q[i];
    }
    plain_fk(c, qd, m);
    for (k = 0; k < 3; k++)
        if (!(fabs(m[k * 4 + 3] - target[k * 4 + 3]) <= tol_p))
            return false;
    if (!rotation)
        return true;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            e[i * 3 + k] = target[i * 4] * m[k * 4] + target[i * 4 + 1] * m[k * 4 + 1] +
                           target[i * 4 + 2] * m[k * 4 + 2];
    v[0] = (e[7] - e[5]) / 2, v[1] = (e[2] - e[6]) / 2, v[2] = (e[3] - e[1]) / 2;
    s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    cs = (e[0] + e[4] + e[8] - 1) / 2;
    if (cs < 0)
        return false;
    f = s > 0 ? atan2(s, cs) / s : 1;
    for (k = 0; k < 3; k++)
        if (!(fabs(v[k] * f) <= tol_r))
            return false;
    return true;
}

static ik_target target_of(const double *m, bool rotation)
{
    ik_mat3 r;
    int i, k;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            r.m[i][k] = (ik_real)m[i * 4 + k];
    ik_target t = ik_target_pose(ik_xform_make(
        ik_quat_from_mat3(r), ik_vec3_make((ik_real)m[3], (ik_real)m[7], (ik_real)m[11])));
    t.use_rotation = rotation;
    return t;
}

// ---- published poses ----

static void effector_at(arm_id id, const double *q, double *m)
{
    arm_def a;
    CHECK(arm_build(id, &a) == IK_OK);
    plain_fk(&a.chain, q, m);
}

// the arms' numbers are ik_real: float keeps ~1e-7 of them
#define KP TOL(1e-9, 1e-6)

static void test_known_poses(void)
{
    static const double zero[7] = { 0, 0, 0, 0, 0, 0, 0 };
    const double panda_ready[7] = { 0, -PI_D / 4, 0, -3 * PI_D / 4, 0, PI_D / 2, PI_D / 4 };
    double m[16], qd[7];
    ik_xform eff;
    arm_def a;
    int i;
    // iiwa 14 R820 at zero: upright, flange 0.36 + 0.42 + 0.40 + 0.126 = 1.306 m above the base,
    // flange frame aligned with the base
    effector_at(ARM_IIWA14, zero, m);
    CHECK_NEAR(m[3], 0, KP);
    CHECK_NEAR(m[7], 0, KP);
    CHECK_NEAR(m[11], 1.306, KP);
    CHECK_NEAR(m[0] + m[5] + m[10], 3, KP);
    // joint 4 (the elbow, 0.78 m up) at +-90 deg folds the 0.526 m forearm horizontal
    qd[0] = 0, qd[1] = 0, qd[2] = 0, qd[3] = PI_D / 2, qd[4] = 0, qd[5] = 0, qd[6] = 0;
    effector_at(ARM_IIWA14, qd, m);
    CHECK_NEAR(sqrt(m[3] * m[3] + m[7] * m[7]), 0.526, KP);
    CHECK_NEAR(m[11], 0.78, KP);
    // Panda ready pose: flange at (0.3069, 0, 0.5903) (4 published decimals), pointing down
    effector_at(ARM_PANDA, panda_ready, m);
    CHECK_NEAR(m[3], 0.3069, 1e-4);
    CHECK_NEAR(m[7], 0, KP);
    CHECK_NEAR(m[11], 0.5903, 1e-4);
    CHECK_NEAR(m[10], -1, KP);
    // Panda at zero (outside joint 4's limits, but a known pose): flange at (0.088, 0, 0.926)
    effector_at(ARM_PANDA, zero, m);
    CHECK_NEAR(m[3], 0.088, KP);
    CHECK_NEAR(m[11], 0.333 + 0.316 + 0.384 - 0.107, KP);
    // UR5 at zero: the arm stretched along -x, tool at (a2 + a3, -(d4 + d6), d1 - d5)
    effector_at(ARM_UR5, zero, m);
    CHECK_NEAR(m[3], -0.81725, KP);
    CHECK_NEAR(m[7], -0.19145, KP);
    CHECK_NEAR(m[11], -0.005491, KP);
    // human arm hanging: the palm 0.30 + 0.25 + 0.08 below the shoulder; elbow at 90 deg brings
    // the forearm and hand forward or back (0.33 m) at elbow height
    effector_at(ARM_HUMAN, zero, m);
    CHECK_NEAR(m[11], -0.63, KP);
    qd[0] = 0, qd[1] = 0, qd[2] = 0, qd[3] = PI_D / 2, qd[4] = 0, qd[5] = 0, qd[6] = 0;
    effector_at(ARM_HUMAN, qd, m);
    CHECK_NEAR(fabs(m[3]), 0.33, KP);
    CHECK_NEAR(m[11], -0.30, KP);
    // planar 20 at zero: straight along x, 20 units
    {
        double z20[20] = { 0 };
        effector_at(ARM_PLANAR20, z20, m);
        CHECK_NEAR(m[3], 20, KP);
    }
    // ik.h's own FK agrees with the plain one on every arm (the chains are what the FK tests
    // above saw)
    for (i = 0; i < ARM_COUNT; i++) {
        test_rng rng = { 99 };
        double qq[ARM_MAX_JOINTS];
        ik_real qr[ARM_MAX_JOINTS];
        int k;
        CHECK(arm_build((arm_id)i, &a) == IK_OK);
        for (k = 0; k < a.dof; k++) {
            qq[k] = test_rng_uniform(&rng, (double)a.joints[k].lo, (double)a.joints[k].hi);
            qr[k] = (ik_real)qq[k];
            qq[k] = (double)qr[k];
        }
        plain_fk(&a.chain, qq, m);
        CHECK(ik_chain_fk(&a.chain, qr, NULL, &eff) == IK_OK);
        CHECK_NEAR(eff.pos.x, m[3], TOL(1e-12, 2e-5));
        CHECK_NEAR(eff.pos.z, m[11], TOL(1e-12, 2e-5));
    }
}

// ---- the solver on each arm ----

typedef struct arm_run {
    int solved, problems;
    long iterations;
} arm_run;

// n problems: states uniform within the limits, targets their plain FK; starts random within
// the limits (near = false) or the state plus up to 0.1 rad of noise, clamped (near = true).
static arm_run solve_arm(arm_id id, int n, bool near, unsigned long long seed)
{
    arm_def a;
    arm_run run = { 0, 0, 0 };
    test_rng rng = { seed };
    ik_arm_opts o = ik_default_arm_opts();
    size_t need;
    int i, k;
    CHECK(arm_build(id, &a) == IK_OK);
    need = ik_arm_scratch_size(&a.chain);
    CHECK(need > 0 && need <= sizeof arm_scratch);
    // the protocol's 1e-5 (per component): the solver's own tolerances are Euclidean norms, so
    // a converged answer meets it; float solves to its default 1e-5 and is checked at 3e-5
    // (float resolves ~1e-7 of the 1-20 unit chains, the FK's rounding adds up over 7-20 joints)
    o.jacobian.tolerance = (ik_real)TOL(1e-5, 1e-5);
    o.jacobian.rotation_tolerance = (ik_real)TOL(1e-5, 1e-5);
    o.max_attempts = 200;
    for (i = 0; i < n; i++) {
        double qt[ARM_MAX_JOINTS], m[16];
        ik_real q[ARM_MAX_JOINTS];
        ik_target t;
        ik_solve_info info;
        for (k = 0; k < a.dof; k++)
            qt[k] = test_rng_uniform(&rng, (double)a.joints[k].lo, (double)a.joints[k].hi);
        for (k = 0; k < a.dof; k++) {
            double v = near
                           ? qt[k] + test_rng_uniform(&rng, -0.1, 0.1)
                           : test_rng_uniform(&rng, (double)a.joints[k].lo, (double)a.joints[k].hi);
            v = v < (double)a.joints[k].lo ? (double)a.joints[k].lo : v;
            v = v > (double)a.joints[k].hi ? (double)a.joints[k].hi : v;
            q[k] = (ik_real)v;
        }
        plain_fk(&a.chain, qt, m);
        t = target_of(m, !a.position_only);
        o.random_seed = seed + (unsigned long long)i;
        if (ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) != IK_OK)
            continue;
        run.problems++;
        run.iterations += info.iterations;
        if (info.status == IK_STATUS_CONVERGED &&
            meets_criterion(&a.chain, q, m, !a.position_only, TOL(1e-5, 3e-5), TOL(1e-5, 3e-5)))
            run.solved++;
        else
            printf("  %s problem %d: status %s, errors %g m %g rad\n", a.name, i,
                   ik_status_string(info.status), (double)info.position_error,
                   (double)info.rotation_error);
    }
    return run;
}

static void test_solve_arms(void)
{
    // problems per arm: random starts (restarts needed) and near starts (tracking)
    static const int counts[ARM_COUNT][2] = { { 200, 100 }, { 200, 100 }, { 200, 100 },
                                              { 200, 100 }, { 200, 100 }, { 200, 100 },
                                              { 100, 50 } };
    int i, mode;
    for (i = 0; i < ARM_COUNT; i++)
        for (mode = 0; mode < 2; mode++) {
            int n = counts[i][mode];
            arm_run r = solve_arm((arm_id)i, n, mode == 1, 1000 + (unsigned long long)i);
            CHECK(r.problems == n);
            CHECK(r.solved == n);
        }
}

// ---- the contract ----

static int stop_calls;
static bool stop_now(void *user)
{
    stop_calls++;
    return *(const int *)user != 0;
}

static void test_arm_contract(void)
{
    arm_def a;
    ik_arm_opts o = ik_default_arm_opts(), bad;
    ik_real q[7], q2[7], keep[7];
    ik_solve_info info, info2;
    ik_target t;
    double m[16], qt[7] = { 0.3, -0.4, 0.5, -1.2, 0.2, 1.1, -0.3 };
    int k, yes = 1, no = 0;
    CHECK(arm_build(ARM_PANDA, &a) == IK_OK);
    plain_fk(&a.chain, qt, m);
    t = target_of(m, true);
    for (k = 0; k < 7; k++)
        keep[k] = q[k] = (ik_real)(0.5 * ((double)a.joints[k].lo + (double)a.joints[k].hi));
    // errors: q untouched
    CHECK(ik_arm_solve(NULL, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_ERR_NULL_ARG);
    CHECK(ik_arm_solve(&a.chain, NULL, &o, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_NULL_ARG);
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, NULL, sizeof arm_scratch, &info) == IK_ERR_NULL_ARG);
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, ik_arm_scratch_size(&a.chain) - 1,
                       &info) == IK_ERR_SCRATCH_TOO_SMALL);
    bad = o;
    bad.max_attempts = 0;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    bad.probe_error = (ik_real)-1;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    bad._valid = 0;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    bad.jacobian.max_iterations = 0; // the attempts' options are checked too
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    bad.jacobian.tolerance = (ik_real)-1;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    bad.jacobian.max_joint_step = 0;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    bad.jacobian.method = (ik_jacobian_method)7;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    bad.jacobian.damping = (ik_real)INFINITY;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_OPTS);
    bad = o;
    q2[0] = (ik_real)NAN;
    bad.jacobian.rest = q2;
    CHECK(ik_arm_solve(&a.chain, &t, &bad, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_ARG);
    t.pos.x = (ik_real)NAN;
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_ARG);
    t = target_of(m, true);
    q[2] = (ik_real)INFINITY;
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) ==
          IK_ERR_BAD_ARG);
    CHECK(test_isinf((double)q[2]));
    q[2] = keep[2];
    for (k = 0; k < 7; k++)
        CHECK(q[k] == keep[k]);

    // deterministic: the same seed gives the same answer bit for bit, even from random starts
    o.random_seed = 12345;
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
    for (k = 0; k < 7; k++)
        q2[k] = keep[k];
    CHECK(ik_arm_solve(&a.chain, &t, &o, q2, arm_scratch, sizeof arm_scratch, &info2) == IK_OK);
    CHECK(info.status == IK_STATUS_CONVERGED);
    CHECK(info.iterations == info2.iterations);
    for (k = 0; k < 7; k++)
        CHECK(q[k] == q2[k]);
    // opts may be NULL (defaults)
    for (k = 0; k < 7; k++)
        q2[k] = keep[k];
    CHECK(ik_arm_solve(&a.chain, &t, NULL, q2, arm_scratch, sizeof arm_scratch, NULL) == IK_OK);

    // the stop callback: asked before every restart, never before the first attempt
    o.stop = stop_now;
    o.stop_user = &yes;
    o.jacobian.max_iterations = 2; // too few to converge from this start
    stop_calls = 0;
    for (k = 0; k < 7; k++)
        q[k] = keep[k];
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
    CHECK(stop_calls == 1);
    CHECK(info.status != IK_STATUS_CONVERGED);
    CHECK(info.iterations <= 2);
    o.stop_user = &no;
    o.max_attempts = 5;
    stop_calls = 0;
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_CONVERGED ? stop_calls <= 4 : stop_calls == 4);
    CHECK(info.iterations <= 5 * 2);

    // out of reach: unreachable, the closest attempt kept, every joint within its limits
    o = ik_default_arm_opts();
    o.max_attempts = 5;
    t = ik_target_position(ik_vec3_make(3, 0, (ik_real)0.3));
    for (k = 0; k < 7; k++)
        q[k] = keep[k];
    CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE);
    CHECK(info.iterations <= o.jacobian.max_iterations); // no restarts
    for (k = 0; k < 7; k++)
        CHECK(q[k] >= a.joints[k].lo && q[k] <= a.joints[k].hi);
    CHECK((double)info.position_error > 1.5 && (double)info.position_error < 3);
}

// Options the arm's own attempts do not cover (other methods, a rest pose) run each attempt
// through ik_jacobian_solve(); a fixed damping replaces the adaptive one. All solve.
static void test_arm_other_opts(void)
{
    arm_def a;
    double m[16], qt[7] = { 0.3, -0.4, 0.5, -1.2, 0.2, 1.1, -0.3 };
    ik_real rest[7] = { 0 };
    int v, k;
    CHECK(arm_build(ARM_PANDA, &a) == IK_OK);
    plain_fk(&a.chain, qt, m);
    for (v = 0; v < 4; v++) {
        ik_arm_opts o = ik_default_arm_opts();
        ik_target t = target_of(m, true);
        ik_solve_info info;
        ik_real q[7];
        o.jacobian.tolerance = o.jacobian.rotation_tolerance = (ik_real)TOL(1e-5, 1e-5);
        o.max_attempts = 500;
        if (v == 0)
            o.jacobian.method = IK_JACOBIAN_PINV;
        else if (v == 1)
            o.jacobian.method = IK_JACOBIAN_SDLS;
        else if (v == 2)
            o.jacobian.rest = rest, o.jacobian.rest_gain = (ik_real)0.01;
        else
            o.jacobian.damping = (ik_real)0.01;
        for (k = 0; k < 7; k++) // a start far from qt: restarts are likely
            q[k] = (ik_real)(0.9 * (double)a.joints[k].lo);
        CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_CONVERGED);
        CHECK(meets_criterion(&a.chain, q, m, true, TOL(1e-5, 3e-5), TOL(1e-5, 3e-5)));
    }
}

// The damping vanishes with the error: from a near start the last iterations converge as fast
// as Gauss-Newton's, to 1e-12 in a handful of iterations, even at a singular target (the UR5
// with its elbow straight, where a fixed damping floor would crawl); and ball joints (no limits,
// exponential maps) take the same path.
static void test_arm_convergence(void)
{
    arm_def a;
    ik_arm_opts o = ik_default_arm_opts();
    ik_solve_info info;
    double m[16], qt[6] = { 0.4, -1.0, 0.0, -0.7, 1.2, 0.3 };
    ik_real q[7];
    int k, side;
    o.max_attempts = 1;
    CHECK(arm_build(ARM_UR5, &a) == IK_OK);
    for (side = 0; side < 2; side++) {
        ik_target t;
        qt[2] = side ? 0.0 : 1.0; // singular (straight elbow), regular
        plain_fk(&a.chain, qt, m);
        t = target_of(m, true);
#ifndef IK_USE_FLOAT
        // at the singular target the error is quadratic in the elbow's offset: every Newton-type
        // step converges there only linearly, so the default 1e-6
        o.jacobian.tolerance = o.jacobian.rotation_tolerance = (ik_real)(side ? 1e-6 : 1e-12);
#endif
        for (k = 0; k < 6; k++)
            q[k] = (ik_real)(qt[k] + (k % 2 ? 0.05 : -0.05));
        CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_CONVERGED);
        CHECK(info.iterations <= (side ? 8 : 5));
        CHECK(meets_criterion(&a.chain, q, m, true, side ? TOL(1e-6, 3e-5) : TOL(1e-10, 3e-5),
                              side ? TOL(1e-6, 3e-5) : TOL(1e-10, 3e-5)));
    }
    {
        // two ball joints and a revolute elbow, position target
        ik_joint j[3];
        ik_chain c;
        ik_xform eff;
        ik_target t = ik_target_position(ik_vec3_make((ik_real)0.3, (ik_real)0.5, (ik_real)0.4));
        j[0] = ik_joint_ball(ik_xform_identity());
        j[1] = ik_joint_revolute(ik_xform_make(ik_quat_identity(), ik_vec3_make(0, 0, 1)),
                                 ik_vec3_make(1, 0, 0));
        j[1].lo = (ik_real)-2.5, j[1].hi = (ik_real)2.5;
        j[2] = ik_joint_ball(ik_xform_make(ik_quat_identity(), ik_vec3_make(0, 0, 1)));
        c = ik_chain_make(j, 3, ik_xform_make(ik_quat_identity(), ik_vec3_make(0, 0, 1)));
        CHECK(ik_chain_dof(&c) == 7);
        for (k = 0; k < 7; k++)
            q[k] = 0;
        o = ik_default_arm_opts();
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_CONVERGED);
        CHECK(ik_chain_fk(&c, q, NULL, &eff) == IK_OK);
        CHECK((double)ik_vec3_length(ik_vec3_sub(eff.pos, t.pos)) <= TOL(1e-6, 1e-5) * 1.0001);
        CHECK(q[3] >= j[1].lo && q[3] <= j[1].hi);
    }
}

// The closed form for arms with a spherical shoulder and wrist (the iiwa and the human arm):
// the first attempt starts from its answer, so one attempt of one iteration solves random
// targets from random starts; from the true state it returns that state (the answer nearest
// the start). The Panda (offset wrist) and an iiwa whose second axis misses the shoulder by
// 1e-6 (float: 1e-3) have none: the same budget solves few. A frozen joint (weight 0) keeps
// its value.
#ifndef IK_NO_FAST_PATHS
static void test_arm_closed_form(void)
{
    static const arm_id ids[4] = { ARM_IIWA14, ARM_HUMAN, ARM_PANDA, ARM_IIWA14 };
    test_rng r = { 41 };
    int id, trial, k;
    for (id = 0; id < 4; id++) {
        arm_def a;
        ik_arm_opts o = ik_default_arm_opts();
        ik_solve_info info;
        int solved = 0, exact = 0, dof;
        CHECK(arm_build(ids[id], &a) == IK_OK);
        if (id == 3) // the second axis off the shoulder
            a.joints[1].origin.pos.x += (ik_real)TOL(1e-6, 1e-3);
        dof = ik_chain_dof(&a.chain);
        o.max_attempts = 1;
        o.jacobian.max_iterations = 1;
        for (trial = 0; trial < 200; trial++) {
            double qt[7], m[16];
            ik_real q[7];
            ik_target t;
            for (k = 0; k < dof; k++)
                qt[k] = test_rng_uniform(&r, (double)a.chain.joints[k].lo,
                                         (double)a.chain.joints[k].hi);
            plain_fk(&a.chain, qt, m);
            t = target_of(m, true);
            for (k = 0; k < dof; k++) // a random start
                q[k] = (ik_real)test_rng_uniform(&r, (double)a.chain.joints[k].lo,
                                                 (double)a.chain.joints[k].hi);
            CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) ==
                  IK_OK);
            solved += info.status == IK_STATUS_CONVERGED &&
                      meets_criterion(&a.chain, q, m, true, TOL(1e-9, 1e-4), TOL(1e-9, 1e-4));
            for (k = 0; k < dof; k++) // the true state
                q[k] = (ik_real)qt[k];
            CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) ==
                  IK_OK);
            // (float: the answer can miss the tolerance by its rounding, one iteration's worth)
            for (k = 0; k < dof && info.iterations <= (int)TOL(0, 1); k++)
                if (!(fabs((double)q[k] - qt[k]) <= TOL(1e-9, 1e-3)))
                    break;
            exact += k == dof;
        }
        if (id < 2) {
            CHECK(solved >= 196); // >= 98%
            CHECK(exact == 200);
        } else {
            CHECK(solved <= 120);
        }
    }
    {
        // frozen: the iiwa's first joint at weight 0 keeps its value
        arm_def a;
        ik_arm_opts o = ik_default_arm_opts();
        ik_solve_info info;
        double qt[7] = { 0.3, 0.5, -0.4, -1.1, 0.6, 0.9, -0.2 }, m[16];
        ik_real q[7] = { (ik_real)0.3, 0, 0, (ik_real)-0.5, 0, 0, 0 };
        ik_target t;
        CHECK(arm_build(ARM_IIWA14, &a) == IK_OK);
        a.joints[0].weight = 0;
        plain_fk(&a.chain, qt, m);
        t = target_of(m, true);
        CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(q[0] == (ik_real)0.3);
    }
}
#endif

// The closed form at its degenerate places, on the iiwa: the shoulder's and the wrist's
// singular states (q2 = 0: the first and third axes in line; q6 = 0), the straight elbow
// (q4 = 0: one elbow answer), all three at once, targets near the shoulder, beyond reach and
// within the elbow's fold, the wrist centre at the shoulder; fixed joints inside the arm; a
// skewed shoulder. Every call ends finite and within the limits; the reachable ones converge
// to the criterion.
#ifndef IK_NO_FAST_PATHS
static void test_arm_closed_form_degenerate(void)
{
    static const double states[5][7] = { { 0.3, 0, -0.4, -1.1, 0.6, 0.9, -0.2 },
                                         { 0.3, 0.5, -0.4, -1.1, 0.6, 0, -0.2 },
                                         { 0.3, 0.5, -0.4, 0, 0.6, 0.9, -0.2 },
                                         { 0.3, 0, -0.4, 0, 0.6, 0, -0.2 },
                                         { 0, 0, 0, 0, 0, 0, 0 } };
    arm_def a;
    ik_arm_opts o = ik_default_arm_opts();
    ik_solve_info info;
    int s, k, far;
    CHECK(arm_build(ARM_IIWA14, &a) == IK_OK);
    for (s = 0; s < 5; s++) {
        double m[16];
        ik_real q[7];
        ik_target t;
        plain_fk(&a.chain, states[s], m);
        t = target_of(m, true);
        for (k = 0; k < 7; k++)
            q[k] = (ik_real)(states[s][k] + (k % 2 ? 0.2 : -0.2));
        CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_CONVERGED);
        CHECK(meets_criterion(&a.chain, q, m, true, TOL(1e-6, 3e-5), TOL(1e-6, 3e-5)));
    }
    for (far = 0; far < 3; far++) {
        // at the shoulder (0, 0, 0.36), beyond reach, within the fold (10 cm from the shoulder)
        static const double pos[3][3] = { { 0, 0, 0.36 }, { 0, 0, 3 }, { 0.1, 0, 0.36 } };
        ik_target t = ik_target_pose(ik_xform_make(
            ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), (ik_real)0.4),
            ik_vec3_make((ik_real)pos[far][0], (ik_real)pos[far][1], (ik_real)pos[far][2])));
        ik_real q[7] = { 0, (ik_real)0.3, 0, (ik_real)-0.5, 0, (ik_real)0.4, 0 };
        o.max_attempts = 3;
        CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status != IK_STATUS_CONVERGED);
        for (k = 0; k < 7; k++)
            CHECK((q[k] - q[k] == 0) && q[k] >= a.chain.joints[k].lo &&
                  q[k] <= a.chain.joints[k].hi);
    }
    {
        // the wrist centre exactly at the shoulder (the flange at S + P_0 - W_0 with the rotation
        // at q = 0): no direction to it, no closed form, and out of the elbow's reach
        ik_real q[7] = { 0, 0, 0, 0, 0, 0, 0 };
        ik_xform zero;
        ik_target t;
        CHECK(ik_chain_fk(&a.chain, q, NULL, &zero) == IK_OK);
        t = ik_target_pose(ik_xform_make(zero.rot, ik_vec3_make(0, 0, (ik_real)(0.36 + 0.126))));
        q[1] = (ik_real)0.3;
        CHECK(ik_arm_solve(&a.chain, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status != IK_STATUS_CONVERGED);
        for (k = 0; k < 7; k++)
            CHECK((q[k] - q[k] == 0) && q[k] >= a.chain.joints[k].lo &&
                  q[k] <= a.chain.joints[k].hi);
    }
    {
        // fixed joints inside (a tool flange after the wrist, an offset before the base), and a
        // shoulder whose second axis is 45 degrees off the first's normal (not every rotation is
        // three angles about its axes: swivels without an answer are passed over): one attempt
        // of one iteration from random starts solves the iiwa with fixed joints as without; the
        // skewed shoulder converges with the default attempts
        ik_joint j[9];
        ik_chain c;
        test_rng r = { 43 };
        int trial, solved = 0, skew;
        for (skew = 0; skew < 2; skew++) {
            int conv = 0;
            j[0] = ik_joint_fixed(ik_xform_translation(ik_vec3_make(0, 0, (ik_real)0.05)));
            for (k = 0; k < 7; k++)
                j[k + 1] = a.chain.joints[k];
            if (skew) // the second axis tilted by 45 degrees about x
                j[2].origin.rot =
                    ik_quat_mul(j[2].origin.rot, ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0),
                                                                         (ik_real)(PI_D / 4)));
            j[8] = ik_joint_fixed(ik_xform_translation(ik_vec3_make(0, 0, (ik_real)0.1)));
            c = ik_chain_make(j, 9, a.chain.tip);
            for (trial = 0; trial < 50; trial++) {
                ik_arm_opts o1 = ik_default_arm_opts();
                double qt[7], m[16];
                ik_real q[7];
                ik_target t;
                for (k = 0; k < 7; k++) {
                    qt[k] = test_rng_uniform(&r, (double)j[k + 1].lo, (double)j[k + 1].hi);
                    q[k] = (ik_real)test_rng_uniform(&r, (double)j[k + 1].lo, (double)j[k + 1].hi);
                }
                plain_fk(&c, qt, m);
                t = target_of(m, true);
                if (!skew)
                    o1.max_attempts = 1, o1.jacobian.max_iterations = 1;
                CHECK(ik_arm_solve(&c, &t, &o1, q, arm_scratch, sizeof arm_scratch, &info) ==
                      IK_OK);
                {
                    ik_xform e;
                    bool within = true;
                    CHECK(ik_chain_fk(&c, q, NULL, &e) == IK_OK);
                    for (k = 0; k < 7; k++)
                        within = within && q[k] >= j[k + 1].lo && q[k] <= j[k + 1].hi;
                    conv += info.status == IK_STATUS_CONVERGED && within &&
                            (double)ik_vec3_length(ik_vec3_sub(e.pos, t.pos)) <= TOL(1e-6, 3e-5) &&
                            (double)ik_vec3_length(ik_quat_to_expmap(
                                ik_quat_mul(t.rot, ik_quat_conjugate(e.rot)))) <= TOL(1e-6, 3e-5);
                }
            }
            CHECK(conv >= (skew ? 50 : 49));
            solved += conv;
        }
        CHECK(solved >= 99);
    }
}
#endif

// A revolute joint whose limits span a whole turn is not stopped at a limit: a step across
// +-pi wraps it by a turn (the same rotation), so a target 0.28 rad away across the seam is
// reached in a few iterations of one attempt, within the limits; a joint limited to less than
// a turn is still stopped there (the same start cannot cross, and ends pinned at its limit).
// (Hinges about y: about z the chain is planar, and its two-joint closed form finds the answer
// within the limits without crossing anything.)
static void test_arm_whole_turns(void)
{
    ik_joint j[2];
    ik_chain c;
    ik_arm_opts o = ik_default_arm_opts();
    ik_solve_info info;
    ik_xform eff;
    ik_target t;
    ik_real q[2], goal[2] = { (ik_real)-3.0, (ik_real)0.7 };
    int k, turn;
    o.max_attempts = 1;
    for (turn = 1; turn >= 0; turn--) {
        for (k = 0; k < 2; k++) {
            j[k] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(k ? 1 : 0, 0, 0)),
                                     ik_vec3_make(0, 1, 0));
            j[k].lo = -IK_PI, j[k].hi = turn ? IK_PI : (ik_real)3.1;
        }
        c = ik_chain_make(j, 2, ik_xform_translation(ik_vec3_make(1, 0, 0)));
        CHECK(ik_chain_fk(&c, goal, NULL, &eff) == IK_OK);
        t = ik_target_position(eff.pos);
        q[0] = (ik_real)3.0, q[1] = (ik_real)0.6;
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        for (k = 0; k < 2; k++)
            CHECK(q[k] >= j[k].lo && q[k] <= j[k].hi);
        if (turn) {
            CHECK(info.status == IK_STATUS_CONVERGED);
            CHECK(info.iterations <= 6);
            CHECK_NEAR(q[0], goal[0], 1e-5);
            CHECK_NEAR(q[1], goal[1], 1e-5);
        } else {
            CHECK(info.status != IK_STATUS_CONVERGED && q[0] == j[0].hi); // pinned at 3.1
        }
    }
}

// Restarts on joints limited on one side only draw within a turn of the finite limit, and a
// small max_step (the arm's own attempts clamp each 3-row block of the error) still converges:
// a 3-joint arm whose first joint is limited below only, the second above only.
static void test_arm_one_sided_limits(void)
{
    ik_joint j[3];
    ik_chain c;
    ik_arm_opts o = ik_default_arm_opts();
    ik_solve_info info;
    ik_xform goal, eff;
    ik_target t;
    ik_real q[3], qt[3] = { (ik_real)0.7, (ik_real)-0.9, (ik_real)0.4 };
    int k, pose;
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[0].lo = 0, j[0].hi = IK_INFINITY;
    j[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(0, 1, 0));
    j[1].lo = -IK_INFINITY, j[1].hi = 0;
    j[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(1, 0, 0));
    c = ik_chain_make(j, 3, ik_xform_translation(ik_vec3_make(0, 0, 1)));
    CHECK(ik_chain_fk(&c, qt, NULL, &goal) == IK_OK);
    for (pose = 0; pose < 2; pose++) {
        t = pose ? ik_target_pose(goal) : ik_target_position(goal.pos);
        o.jacobian.max_step = pose ? (ik_real)0.2 : IK_INFINITY;
        // (steps of at most 0.2 need more iterations, and no probe: it would abandon restarts
        // that clamped steps cannot bring near within the probe's iterations)
        o.jacobian.max_iterations = pose ? 60 : 12;
        o.probe_iterations = pose ? 0 : 6;
        for (k = 0; k < 3; k++) // a start far from the answer: restarts from random states
            q[k] = (ik_real)(k == 1 ? -3.0 : 3.0);
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_CONVERGED);
        CHECK(q[0] >= 0 && q[1] <= 0);
        CHECK(ik_chain_fk(&c, q, NULL, &eff) == IK_OK);
        CHECK((double)ik_vec3_length(ik_vec3_sub(eff.pos, goal.pos)) <= TOL(1e-6, 1e-5) * 1.0001);
    }
}

// Review findings: a frozen joint (weight 0) stays where it is whatever the scratch held (its
// forced move was read uninitialized: 0.2 -> 0.55 with scratch full of 0.7), and a revolute
// joint with a finite span far beyond a turn ([0, 2e20]: whole-turn wrapping once cast a turn
// count beyond long long) stays finite within its limits.
static void test_arm_review_cases(void)
{
    ik_joint j[3];
    ik_chain c;
    ik_arm_opts o = ik_default_arm_opts();
    ik_solve_info info;
    ik_target t = ik_target_position(ik_vec3_make((ik_real)1.2, (ik_real)1.1, 0));
    ik_real q[3];
    int k, trial;
    for (k = 0; k < 3; k++)
        j[k] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(k ? 1 : 0, 0, 0)),
                                 ik_vec3_make(0, 0, 1));
    c = ik_chain_make(j, 3, ik_xform_translation(ik_vec3_make(1, 0, 0)));
    j[0].weight = 0;
    o.max_attempts = 1;
    for (trial = 0; trial < 2; trial++) {
        memset(arm_scratch, trial ? 0x7f : 0x3f, sizeof arm_scratch); // garbage reals
        q[0] = (ik_real)0.2, q[1] = (ik_real)0.3, q[2] = (ik_real)0.4;
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(q[0] == (ik_real)0.2);
        CHECK(info.status == IK_STATUS_CONVERGED);
    }
    j[0].weight = 1;
    j[0].lo = 0, j[0].hi = (ik_real)2e20;
    o.max_attempts = 20;
    for (trial = 0; trial < 2; trial++) {
        q[0] = trial ? (ik_real)1e12 : 0, q[1] = (ik_real)0.3, q[2] = (ik_real)0.4;
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(q[0] >= 0 && q[0] <= (ik_real)2e20 && test_finite((double)q[1]) &&
              test_finite((double)q[2]));
    }
}

// The reach test takes the chain's own reach, infinite with an unlimited prismatic joint and 0
// for a chain of coincident joints (it took 1 for both: a reachable target farther than 1 was
// called unreachable after one attempt that ran out of iterations, and a target of a chain of
// no length within 1 went through every attempt). Random chains of revolute joints with an
// unlimited prismatic joint among them, targets by FK of a random state with the joint
// extended up to 10 times the links: with one iteration per attempt never unreachable; with
// the default iterations, converged.
static void test_arm_infinite_reach(void)
{
    test_rng r = { 515 };
    ik_arm_opts o = ik_default_arm_opts(), few = ik_default_arm_opts();
    ik_solve_info info;
    int trial, k, converged = 0, beyond_one = 0;
    few.jacobian.max_iterations = 1;
    few.max_attempts = 3;
    o.max_attempts = 1000; // (a pose target of 4 joints can take a few hundred restarts)
    for (trial = 0; trial < 40; trial++) {
        ik_joint j[4];
        ik_chain c;
        ik_target t;
        ik_xform goal;
        ik_real qt[4], q[4];
        int slide = (int)(test_rng_next(&r) % 4);
        for (k = 0; k < 4; k++) {
            ik_vec3 off = test_rng_vec3(&r, -0.3, 0.3), axis = test_rng_vec3(&r, -1, 1);
            j[k] = k == slide ? ik_joint_prismatic(ik_xform_translation(off), axis)
                              : ik_joint_revolute(ik_xform_translation(off), axis);
            qt[k] = (ik_real)(k == slide ? test_rng_uniform(&r, -10, 10)
                                         : test_rng_uniform(&r, -PI_D, PI_D));
        }
        c = ik_chain_make(j, 4, ik_xform_translation(test_rng_vec3(&r, -0.3, 0.3)));
        CHECK(ik_chain_fk(&c, qt, NULL, &goal) == IK_OK);
        t = trial % 2 ? ik_target_pose(goal) : ik_target_position(goal.pos);
        beyond_one += (double)ik_vec3_length(ik_vec3_sub(goal.pos, j[0].origin.pos)) > 1;
        for (k = 0; k < 4; k++)
            q[k] = 0;
        CHECK(ik_arm_solve(&c, &t, &few, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status != IK_STATUS_UNREACHABLE);
        for (k = 0; k < 4; k++)
            q[k] = 0;
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        converged += info.status == IK_STATUS_CONVERGED;
    }
    CHECK(beyond_one >= 30);
    CHECK(converged == 40);
    {
        // no length: every joint and the tip at the root; a target 0.5 away, unreachable at
        // once (one attempt, as ik_jacobian_solve() says)
        ik_joint j[2];
        ik_chain c;
        ik_target t = ik_target_position(ik_vec3_make((ik_real)0.5, 0, 0));
        ik_real q[2] = { 0, 0 };
        j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
        j[1] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 1, 0));
        c = ik_chain_make(j, 2, ik_xform_identity());
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_UNREACHABLE && info.iterations <= o.jacobian.max_iterations);
    }
}

// ---- planar chains: the two-joint closed form ----

// Random planar chains (hinges about +z or -z, fixed joints, zero-length and z-offset links,
// limits of +-pi or narrower, a frozen joint now and then) and position targets in their
// plane. From near starts (the true state plus up to 0.1 rad) one iteration of one attempt
// converges to 1e-9 (double) by the closed form in 95% of the cases, moving exactly two joints
// (one damped least-squares iteration from 0.1 rad away cannot); from random starts, with
// restarts, every reachable target converges. Every answer is within the limits with frozen
// joints untouched, checked by the plain FK; a target off the plane, at the first joint, at
// full stretch.
#ifndef IK_NO_FAST_PATHS
static void test_arm_planar_closed_form(void)
{
    test_rng r = { 77 };
    int trial, k, closed = 0, near_trials = 0;
    for (trial = 0; trial < 400; trial++) {
        ik_joint j[12];
        ik_chain c;
        ik_arm_opts o = ik_default_arm_opts();
        ik_solve_info info;
        ik_target t;
        double qt[12], qd[12], m[16], mf[16];
        ik_real q[12], q0[12];
        int n = 2 + (int)test_rng_uniform(&r, 0, 10), dof = 0, moved, near = trial % 2 == 0;
        int joint_of[12], cols = 0; // the joint of each column
        bool wide = trial % 4 < 2;
        for (k = 0; k < n; k++) {
            double len = test_rng_uniform(&r, 0, 1) < 0.1 ? 0 : test_rng_uniform(&r, 0.1, 1.5),
                   dir = test_rng_uniform(&r, -PI_D, PI_D);
            ik_xform origin = ik_xform_translation(
                ik_vec3_make((ik_real)(len * cos(dir)), (ik_real)(len * sin(dir)),
                             (ik_real)test_rng_uniform(&r, -0.3, 0.3)));
            if (k > 1 && test_rng_uniform(&r, 0, 1) < 0.15) {
                j[k] = ik_joint_fixed(origin);
                continue;
            }
            j[k] = ik_joint_revolute(origin,
                                     ik_vec3_make(0, 0, test_rng_uniform(&r, 0, 1) < 0.3 ? -1 : 1));
            joint_of[cols++] = k;
            j[k].lo = wide ? -IK_PI : (ik_real)test_rng_uniform(&r, -3, -0.5);
            j[k].hi = wide ? IK_PI : (ik_real)test_rng_uniform(&r, 0.5, 3);
            if (test_rng_uniform(&r, 0, 1) < 0.1)
                j[k].weight = 0;
        }
        c = ik_chain_make(j, n, ik_xform_translation(ik_vec3_make((ik_real)0.5, (ik_real)0.2, 0)));
        CHECK((dof = ik_chain_dof(&c)) == cols && dof >= 2);
        for (k = 0; k < dof; k++) {
            int jt = joint_of[k];
            qt[k] = test_rng_uniform(&r, (double)j[jt].lo, (double)j[jt].hi);
            qd[k] = near ? qt[k] + test_rng_uniform(&r, -0.1, 0.1)
                         : test_rng_uniform(&r, (double)j[jt].lo, (double)j[jt].hi);
            qd[k] = qd[k] < (double)j[jt].lo ? (double)j[jt].lo : qd[k];
            qd[k] = qd[k] > (double)j[jt].hi ? (double)j[jt].hi : qd[k];
            if (j[jt].weight == 0) // frozen: the target must be reachable from its value
                qt[k] = qd[k];
            q[k] = q0[k] = (ik_real)qd[k];
        }
        plain_fk(&c, qt, m);
        t = target_of(m, false);
        o.jacobian.tolerance = (ik_real)TOL(1e-9, 1e-5);
        if (near) {
            o.max_attempts = 1;
            o.jacobian.max_iterations = 1;
        } else {
            o.max_attempts = 1000;
            o.jacobian.max_iterations = 30;
        }
        CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
        for (k = 0, moved = 0; k < dof; k++) {
            int jt = joint_of[k];
            CHECK(q[k] >= j[jt].lo && q[k] <= j[jt].hi);
            if (j[jt].weight == 0)
                CHECK(q[k] == q0[k]);
            moved += q[k] != q0[k];
            qd[k] = (double)q[k];
        }
        plain_fk(&c, qd, mf);
        if (info.status == IK_STATUS_CONVERGED)
            for (k = 0; k < 3; k++)
                CHECK_NEAR(mf[4 * k + 3], m[4 * k + 3], TOL(2e-9, 3e-5));
        if (near) {
            near_trials++;
            if (info.status == IK_STATUS_CONVERGED && info.iterations == 1 && moved == 2)
                closed++;
        } else if (wide) {
            CHECK(info.status == IK_STATUS_CONVERGED);
        }
    }
    // (the others: a chain with one free joint, or a part of no length at every split)
    CHECK(closed >= near_trials * 90 / 100);
    printf("  planar closed form: %d of %d near starts in one iteration\n", closed, near_trials);
    {
        // two equal links: the target at the first joint (folded), at full stretch, off the plane
        ik_joint j[2];
        ik_chain c;
        ik_arm_opts o = ik_default_arm_opts();
        ik_solve_info info;
        ik_real q[2];
        int which;
        o.max_attempts = 1;
        o.jacobian.max_iterations = 1;
        o.jacobian.tolerance = (ik_real)TOL(1e-12, 1e-5);
        for (k = 0; k < 2; k++)
            j[k] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(k ? 1 : 0, 0, 0)),
                                     ik_vec3_make(0, 0, 1));
        c = ik_chain_make(j, 2, ik_xform_translation(ik_vec3_make(1, 0, 0)));
        for (which = 0; which < 3; which++) {
            ik_vec3 goal = which == 0   ? ik_vec3_make(0, 0, 0)
                           : which == 1 ? ik_vec3_make(0, 2, 0)
                                        : ik_vec3_make(1, 1, (ik_real)0.01);
            ik_target t = ik_target_position(goal);
            ik_xform e;
            q[0] = (ik_real)0.3, q[1] = (ik_real)0.4;
            CHECK(ik_arm_solve(&c, &t, &o, q, arm_scratch, sizeof arm_scratch, &info) == IK_OK);
            CHECK(ik_chain_fk(&c, q, NULL, &e) == IK_OK);
            CHECK(test_finite((double)q[0]) && test_finite((double)q[1]));
            if (which < 2) {
                CHECK(info.status == IK_STATUS_CONVERGED && info.iterations == 1);
                CHECK(ik_vec3_length(ik_vec3_sub(e.pos, goal)) <= (ik_real)TOL(1e-12, 1e-5));
            } else {
                CHECK(info.status != IK_STATUS_CONVERGED);
            }
        }
    }
}
#endif

void test_arm(void)
{
#ifndef IK_NO_FAST_PATHS // (the closed forms: fast paths, which the switch turns off)
    RUN(test_arm_closed_form);
    RUN(test_arm_closed_form_degenerate);
#endif
    RUN(test_arm_review_cases);
    RUN(test_arm_one_sided_limits);
    RUN(test_arm_whole_turns);
    RUN(test_arm_infinite_reach);
#ifndef IK_NO_FAST_PATHS
    RUN(test_arm_planar_closed_form);
#endif
    RUN(test_known_poses);
    RUN(test_arm_contract);
    RUN(test_arm_other_opts);
    RUN(test_arm_convergence);
    RUN(test_solve_arms);
}
