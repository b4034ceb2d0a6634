/* The fast paths against the general code: the same random problems solved by a build with the
   fast paths (joint tables' turns, planar passes and steps, closed forms, unweighted normal
   equations, FABRIK's points-only iterations) and by one with IK_NO_FAST_PATHS. `fastpaths
   write FILE` (either build) writes every answer; `fastpaths compare FILE` (the other build)
   solves again and compares: forward kinematics and Jacobians to rounding, Jacobian solves from
   near starts to the solver's tolerance with the same status, arm solves with the same status
   and both answers on the target (a closed form may pick another of the arm's answers), the
   humanoid's skeleton solves (two priorities, a rest pose; the goals' rows applied on their own
   columns) with the same status and answers to the tolerance, FABRIK on free ball chains with
   the same status and points. Ends "N passed, N failed". */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "../bench/arms.h"
#include "../bench/humanoid.h"
#include "../bench/skeleton_cases.h"
#include "test.h"
#include <stdlib.h>
#include <string.h>

int ik_test_passed = 0, ik_test_failed = 0;

#define MAXDOF    24
#define PROBLEMS  400
#define SKELETONS 60
#define FABRIKS   120

static FILE *out, *in;

// One value: written, or read back and compared with tol (relative to 1 + |value|).
static void value(double x, double tol)
{
    double y;
    if (out) {
        fprintf(out, "%a\n", x);
        return;
    }
    if (fscanf(in, "%la", &y) != 1) {
        CHECK(!"fastpaths: the file ends early");
        return;
    }
    CHECK_NEAR(x, y, tol * (1 + fabs(y)));
}

// A random chain of 3 to 8 joints: hinges about coordinate axes with origins rotated by
// quarter turns about coordinate axes (as DH chains are), general hinges and sliders, or z
// hinges in a plane.
static ik_chain random_chain(test_rng *r, ik_joint *j, int kind)
{
    const int n = 3 + (int)(test_rng_next(r) % 6);
    int i;
    for (i = 0; i < n; i++) {
        ik_vec3 off = test_rng_vec3(r, -0.5, 0.5);
        int k = (int)(test_rng_next(r) % 3);
        ik_quat rot = ik_quat_from_axis_angle(ik_vec3_make(k == 0, k == 1, k == 2),
                                              (ik_real)(1.5707963267948966 * (double)(i % 4)));
        ik_real sign = test_rng_next(r) % 2 ? 1 : -1; // (along +-e_k)
        ik_vec3 axis = ik_vec3_make(sign * (k == 1), sign * (k == 2), sign * (k == 0));
        if (kind == 2) { // planar
            off.z = 0;
            j[i] = ik_joint_revolute(ik_xform_translation(off), ik_vec3_make(0, 0, 1));
        } else if (kind == 1 && i % 3 == 2) {
            j[i] = ik_joint_prismatic(ik_xform_make(test_rng_quat(r), off),
                                      ik_vec3_normalize(test_rng_vec3(r, -1, 1)));
            j[i].lo = -1, j[i].hi = 1;
        } else {
            j[i] = ik_joint_revolute(ik_xform_make(rot, off), axis);
        }
    }
    return ik_chain_make(j, n, ik_xform_translation(ik_vec3_make((ik_real)0.2, 0, 0)));
}

static void kinematics(const ik_chain *c, const ik_real *q)
{
    ik_real jac[6 * MAXDOF];
    ik_xform e;
    int k, dof = ik_chain_dof(c);
    CHECK(ik_chain_jacobian(c, q, 6, jac, &e) == IK_OK);
    value((double)e.pos.x, TOL(1e-12, 1e-5));
    value((double)e.pos.y, TOL(1e-12, 1e-5));
    value((double)e.pos.z, TOL(1e-12, 1e-5));
    for (k = 0; k < 6 * dof; k++)
        value((double)jac[k], TOL(1e-12, 1e-5));
}

// A Jacobian solve from 0.1 rad off a random state: status, then q (the same iterations up to
// rounding, so the same answer to well within the tolerance).
static void jacobian_solve(test_rng *r, const ik_chain *c, bool pose, ik_jacobian_method m)
{
    static unsigned char scratch[1 << 16];
    ik_jacobian_opts o = ik_default_jacobian_opts();
    ik_real qt[MAXDOF], q[MAXDOF];
    ik_solve_info info;
    ik_xform e;
    ik_target t;
    int k, dof = ik_chain_dof(c);
    for (k = 0; k < dof; k++) {
        qt[k] = (ik_real)test_rng_uniform(r, -1, 1);
        q[k] = qt[k] + (ik_real)test_rng_uniform(r, -0.1, 0.1);
    }
    ik_chain_fk(c, qt, NULL, &e);
    t = pose ? ik_target_pose(e) : ik_target_position(e.pos);
    o.method = m;
    CHECK(ik_jacobian_solve(c, &t, &o, q, scratch, sizeof scratch, &info) == IK_OK);
    value((double)info.status, 0);
    for (k = 0; k < dof; k++)
        value((double)q[k], TOL(1e-7, 1e-3));
}

// An arm solve of a random reachable pose: the status, and the answer on the target.
static void arm_solve(test_rng *r, const ik_chain *c)
{
    static unsigned char scratch[1 << 17];
    ik_arm_opts o = ik_default_arm_opts();
    ik_real qt[MAXDOF], q[MAXDOF];
    ik_solve_info info;
    ik_xform e, f;
    ik_target t;
    int k, dof = ik_chain_dof(c);
    for (k = 0; k < dof; k++) {
        const ik_joint *j = &c->joints[k];
        double lo = ik__finite(j->lo) ? (double)j->lo : -3,
               hi = ik__finite(j->hi) ? (double)j->hi : 3;
        qt[k] = (ik_real)test_rng_uniform(r, lo, hi);
        q[k] = (ik_real)test_rng_uniform(r, lo, hi);
    }
    ik_chain_fk(c, qt, NULL, &e);
    t = ik_target_pose(e);
    CHECK(ik_arm_solve(c, &t, &o, q, scratch, sizeof scratch, &info) == IK_OK);
    value((double)info.status, 0);
    CHECK(ik_chain_fk(c, q, NULL, &f) == IK_OK);
    CHECK(info.status != IK_STATUS_CONVERGED ||
          (double)ik_vec3_length(ik_vec3_sub(f.pos, t.pos)) <= 2 * (double)o.jacobian.tolerance);
}

// FABRIK on a random chain of 2 to 12 free ball joints (a fixed joint after each in every other
// chain) toward a random position, from a random start: 1, 3 or 10 iterations (tolerance 0), then
// with the default options but the tolerance in float (the status and iterations too). The fast path iterates on the points alone and turns each joint once
// at the end by the shortest arc from its bone's start to its end, the general code by one every
// iteration: the same points to rounding (so the same status and iterations), the ball joints'
// pivots and the effector; not the same twist about each bone (shortest arcs do not compose into
// the shortest arc), so neither q nor the pivots of fixed joints off the bones are compared.
static void fabrik_solve(test_rng *r, int p)
{
    static unsigned char scratch[1 << 16];
    ik_fabrik_opts o = ik_default_fabrik_opts();
    ik_joint j[24];
    ik_real q[3 * 12], q0[3 * 12]; // (ball joints' maps; fixed joints have none)
    ik_vec3 points[25];
    ik_solve_info info;
    ik_target t = ik_target_position(test_rng_vec3(r, -2, 2));
    ik_chain c;
    int n = 2 + (int)(test_rng_next(r) % 11), m = 0, i, k, dof, pass;
    for (i = 0; i < n; i++) {
        j[m++] = ik_joint_ball(ik_xform_make(test_rng_quat(r), test_rng_vec3(r, -0.4, 0.4)));
        if (p % 2)
            j[m++] = ik_joint_fixed(ik_xform_make(test_rng_quat(r), test_rng_vec3(r, -0.3, 0.3)));
    }
    c = ik_chain_make(j, m, ik_xform_translation(test_rng_vec3(r, -0.3, 0.3)));
    dof = ik_chain_dof(&c);
    for (k = 0; k < dof; k++)
        q0[k] = (ik_real)test_rng_uniform(r, -1.2, 1.2);
    for (pass = 0; pass < 2; pass++) {
        memcpy(q, q0, (size_t)dof * sizeof q[0]);
        o.max_iterations = pass ? 100 : (p % 3 == 0 ? 1 : p % 3 == 1 ? 3 : 10);
        o.tolerance = pass ? (ik_real)TOL(1e-6, 1e-3) : 0; // (float: well off its rounding)
        o.min_improvement = pass ? ik_default_fabrik_opts().min_improvement : 0;
        CHECK(ik_fabrik_solve(&c, &t, &o, q, scratch, sizeof scratch, &info, points) == IK_OK);
        if (pass) { // (with tolerance 0, rounding stalls one build and not the other)
            bool stopped = info.status != IK_STATUS_CONVERGED &&
                           info.status != IK_STATUS_MAX_ITERATIONS; // (stalled, unreachable)
            value((double)info.status, 0);
            // (float: when a stalled or unreachable solve stops is up to rounding)
            value((double)info.iterations, stopped ? TOL(0, 100) : 0);
        }
        for (i = 0; i <= m; i += p % 2 ? 2 : 1) { // (the balls' pivots, the effector)
            value((double)points[i].x, TOL(1e-9, 1e-3));
            value((double)points[i].y, TOL(1e-9, 1e-3));
            value((double)points[i].z, TOL(1e-9, 1e-3));
        }
    }
}

// The humanoid from 0.1 off a random state within its limits to that state's effector poses:
// two priorities (feet first), the standing pose as the rest pose, DLS or PINV; the status and q.
static void skeleton_solve(const humanoid *h, int i, ik_jacobian_method m)
{
    static unsigned char scratch[1 << 18];
    const ik_skeleton *s = &h->skeleton;
    ik_jacobian_opts o = ik_default_jacobian_opts();
    ik_xform none[2] = { ik_xform_identity(), ik_xform_identity() };
    ik_effector e[HUMANOID_EFFECTORS];
    ik_real q[HUMANOID_DOF], rest[HUMANOID_DOF];
    ik_solve_info info;
    unsigned long long draw = (unsigned long long)i + 11;
    int k;
    skc_random_state(s, &draw, 0.5, q);
    humanoid_effectors(h, none, none, ik_vec3_make(0, 0, 1), e);
    skc_targets_at(s, q, e, HUMANOID_EFFECTORS);
    skc_perturb(s, &draw, 0.1, q);
    humanoid_rest(h, rest);
    o.method = m;
    o.rest = rest;
    CHECK(ik_skeleton_solve(s, e, HUMANOID_EFFECTORS, &o, q, scratch, sizeof scratch, &info,
                            NULL) == IK_OK);
    value((double)info.status, 0);
    for (k = 0; k < HUMANOID_DOF; k++)
        value((double)q[k], TOL(1e-7, 1e-3));
}

int main(int argc, char **argv)
{
    static humanoid body;
    test_rng r = { 2027 };
    arm_def arm;
    int p;
    if (argc != 3 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "compare") != 0)) {
        fprintf(stderr, "usage: fastpaths write|compare FILE\n");
        return 2;
    }
    if (argv[1][0] == 'w')
        out = fopen(argv[2], "w");
    else
        in = fopen(argv[2], "r");
    if (!out && !in) {
        fprintf(stderr, "fastpaths: cannot open %s\n", argv[2]);
        return 2;
    }
    for (p = 0; p < PROBLEMS; p++) {
        ik_joint j[8];
        ik_real q[MAXDOF];
        ik_chain c = random_chain(&r, j, p % 3);
        int k, dof = ik_chain_dof(&c);
        for (k = 0; k < dof; k++)
            q[k] = (ik_real)test_rng_uniform(&r, -3, 3);
        kinematics(&c, q);
        jacobian_solve(&r, &c, p % 3 != 2, p % 2 ? IK_JACOBIAN_PINV : IK_JACOBIAN_DLS);
    }
    for (p = 0; p < 3 * 40; p++) { // arms with a closed form, with DH origins, with neither
        CHECK(arm_build(p % 3 == 0 ? ARM_IIWA14 : p % 3 == 1 ? ARM_PANDA : ARM_UR5, &arm) == IK_OK);
        arm_solve(&r, &arm.chain);
    }
    for (p = 0; p < FABRIKS; p++)
        fabrik_solve(&r, p);
    CHECK(humanoid_build(&body) == IK_OK);
    for (p = 0; p < SKELETONS; p++)
        skeleton_solve(&body, p, p % 2 ? IK_JACOBIAN_PINV : IK_JACOBIAN_DLS);
    if (out)
        fclose(out);
    else
        fclose(in);
    printf("fast paths %s: %d problems\n", out ? "written" : "compared",
           PROBLEMS + 120 + FABRIKS + SKELETONS);
    printf("%d passed, %d failed\n", ik_test_passed, ik_test_failed);
    return ik_test_failed == 0 ? 0 : 1;
}
