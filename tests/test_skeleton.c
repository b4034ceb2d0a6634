/* Skeletons: trees of joints with several effectors. Tree FK against frames composed here, the
   Jacobian against central differences, a chain solved as a one-branch skeleton against the chain
   solver, every effector kind reaching targets made by FK of random states, several effectors at
   once, limits, blending, priorities and bad input, on random trees with fixed seeds. */
#include "test.h"
#include "../bench/humanoid.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_skeleton(void);

#define SK_MAX 32 // (the humanoid has 27 joints)
#define SK_DOF (3 * SK_MAX)

typedef struct sk_tree {
    ik_joint joints[SK_MAX];
    int parents[SK_MAX];
    ik_ball_limit limits[SK_MAX];
    int n, dof;
    ik_skeleton skeleton;
} sk_tree;

// A random tree of n joints: each joint's parent one of the previous three (or the root), bones
// 0.1 to 0.5 long in random directions, random origin rotations; kinds by `mix` (0: revolute and
// ball only; 1: also prismatic and fixed), limits when `limited`.
static void sk_random_tree(test_rng *rng, int n, int mix, bool limited, sk_tree *t)
{
    int i;
    t->n = n;
    for (i = 0; i < n; i++) {
        int back = 1 + (int)(test_rng_next(rng) % 3);
        double kind = test_rng_uniform(rng, 0, 1);
        ik_vec3 dir = ik_vec3_normalize(test_rng_vec3(rng, -1, 1));
        ik_real length = (ik_real)test_rng_uniform(rng, 0.1, 0.5); // (one draw a statement:
        ik_quat turn =
            test_rng_quat(rng); // the order gcc gave the arguments' draws, for clang too)
        ik_xform origin = ik_xform_make(turn, ik_vec3_scale(dir, length));
        ik_vec3 axis = ik_vec3_normalize(test_rng_vec3(rng, -1, 1));
        t->parents[i] = i - back < 0 ? -1 : i - back;
        if (i > 0 && test_rng_uniform(rng, 0, 1) < 0.5)
            t->parents[i] = i - 1;
        if (mix && kind < 0.1) {
            t->joints[i] = ik_joint_fixed(origin);
        } else if (mix && kind < 0.2) {
            t->joints[i] = ik_joint_prismatic(origin, axis);
            t->joints[i].lo = IK_R(-0.3), t->joints[i].hi = IK_R(0.3);
        } else if (kind < 0.55) {
            t->joints[i] = ik_joint_ball(origin);
            if (limited) {
                ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_R(1.2),
                                   IK_R(0.8), IK_R(-0.9), IK_R(0.9), &t->limits[i]);
                t->joints[i].limit = &t->limits[i];
            }
        } else {
            t->joints[i] = ik_joint_revolute(origin, axis);
            if (limited)
                t->joints[i].lo = IK_R(-2), t->joints[i].hi = IK_R(2);
        }
    }
    t->skeleton = ik_skeleton_make(t->joints, t->parents, n);
    t->dof = ik_skeleton_dof(&t->skeleton);
}

// A random state within the tree's limits (balls: exponential maps up to `size` rad, projected
// into their limits).
static void sk_random_state(test_rng *rng, const sk_tree *t, double size, ik_real *q)
{
    int i, c = 0;
    for (i = 0; i < t->n; i++) {
        const ik_joint *j = &t->joints[i];
        if (j->type == IK_JOINT_BALL) {
            ik_vec3 v = test_rng_vec3(rng, -size / 1.7, size / 1.7);
            if (j->limit)
                v = ik_quat_to_expmap(ik_ball_limit_project(j->limit, ik_quat_from_expmap(v)));
            q[c] = v.x, q[c + 1] = v.y, q[c + 2] = v.z;
            c += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            double lo = (double)j->lo > -size ? (double)j->lo : -size;
            double hi = (double)j->hi < size ? (double)j->hi : size;
            q[c++] = (ik_real)test_rng_uniform(rng, lo, hi);
        }
    }
}

// Every joint's frame composed here from the joints' own transforms (not by ik.h's pass).
static void sk_reference_fk(const sk_tree *t, const ik_real *q, ik_xform *frames)
{
    int i, c = 0;
    for (i = 0; i < t->n; i++) {
        const ik_joint *j = &t->joints[i];
        ik_xform parent = t->parents[i] < 0 ? ik_xform_identity() : frames[t->parents[i]];
        ik_xform motion = ik_xform_identity();
        if (j->type == IK_JOINT_REVOLUTE)
            motion.rot = ik_quat_from_axis_angle(j->axis, q[c++]);
        else if (j->type == IK_JOINT_PRISMATIC)
            motion.pos = ik_vec3_scale(j->axis, q[c++]);
        else if (j->type == IK_JOINT_BALL) {
            motion.rot = ik_quat_from_expmap(ik_vec3_make(q[c], q[c + 1], q[c + 2]));
            c += 3;
        }
        frames[i] = ik_xform_mul(ik_xform_mul(parent, j->origin), motion);
    }
}

// Tree FK against the reference; a chain (parents NULL) as ik_chain_fk() gives it.
static void test_skeleton_fk(void)
{
    test_rng rng = { 101 };
    double worst = 0, worst_chain = 0;
    int trial, i, identical = 0, n_frames = 0;
    for (trial = 0; trial < 2000; trial++) {
        sk_tree t;
        ik_real q[SK_DOF];
        ik_xform got[SK_MAX], want[SK_MAX], chain_frames[SK_MAX], effector;
        ik_chain chain;
        ik_skeleton as_chain;
        sk_random_tree(&rng, 1 + (int)(test_rng_next(&rng) % SK_MAX), 1, false, &t);
        sk_random_state(&rng, &t, 3, q);
        CHECK(ik_skeleton_fk(&t.skeleton, q, got) == IK_OK);
        sk_reference_fk(&t, q, want);
        for (i = 0; i < t.n; i++) {
            worst = fmax(worst, test_vec3_dist(got[i].pos, want[i].pos));
            worst = fmax(worst, test_quat_angle(got[i].rot, want[i].rot));
        }
        as_chain = ik_skeleton_make(t.joints, NULL, t.n);
        chain = ik_chain_make(t.joints, t.n, ik_xform_identity());
        CHECK(ik_skeleton_fk(&as_chain, q, got) == IK_OK);
        CHECK(ik_chain_fk(&chain, q, chain_frames, &effector) == IK_OK);
        for (i = 0; i < t.n; i++) {
            double d = fmax(test_vec3_dist(got[i].pos, chain_frames[i].pos),
                            fabs((double)got[i].rot.x - (double)chain_frames[i].rot.x) +
                                fabs((double)got[i].rot.y - (double)chain_frames[i].rot.y) +
                                fabs((double)got[i].rot.z - (double)chain_frames[i].rot.z) +
                                fabs((double)got[i].rot.w - (double)chain_frames[i].rot.w));
            worst_chain = fmax(worst_chain, d);
            identical += d == 0;
            n_frames++;
        }
    }
    printf("  skeleton fk: 2000 random trees, worst frame error %.3g; as chains %.3g (%d of %d "
           "frames the chain's to the bit)\n",
           worst, worst_chain, identical, n_frames);
    CHECK_NEAR(worst, 0, TOL(1e-12, 2e-4));
#if !TEST_FAST_MATH
    CHECK(identical == n_frames); // (the same pass)
#endif
    CHECK_NEAR(worst_chain, 0, TOL(1e-15, 1e-6));
}

// The frame joint * offset's position and rotation at q.
static ik_xform sk_effector_frame(const sk_tree *t, const ik_real *q, int joint, ik_xform offset)
{
    ik_xform frames[SK_MAX];
    ik_skeleton_fk(&t->skeleton, q, frames);
    return ik_xform_mul(frames[joint], offset);
}

// The Jacobian of a random frame on random trees against central differences of FK (ball
// columns: derivatives with respect to the exponential map's values).
static void test_skeleton_jacobian(void)
{
    test_rng rng = { 202 };
    double worst = 0;
    int trial, r, c;
#ifdef IK_USE_FLOAT
    const double h = 1e-2;
#else
    const double h = 1e-6;
#endif
    for (trial = 0; trial < 500; trial++) {
        sk_tree t;
        ik_real q[SK_DOF], jac[6 * SK_DOF];
        ik_xform frames[SK_MAX], offset;
        int joint;
        sk_random_tree(&rng, 1 + (int)(test_rng_next(&rng) % SK_MAX), 1, false, &t);
        sk_random_state(&rng, &t, 2, q);
        joint = (int)(test_rng_next(&rng) % (uint64_t)t.n);
        offset.pos = test_rng_vec3(&rng, -0.3, 0.3); // (one draw a statement)
        offset.rot = test_rng_quat(&rng);
        offset = ik_xform_make(offset.rot, offset.pos);
        CHECK(ik_skeleton_jacobian(&t.skeleton, q, joint, offset, jac, frames) == IK_OK);
        for (c = 0; c < t.dof; c++) {
            ik_real keep = q[c];
            ik_xform plus, minus;
            ik_quat d;
            double col[6];
            q[c] = (ik_real)((double)keep + h);
            plus = sk_effector_frame(&t, q, joint, offset);
            q[c] = (ik_real)((double)keep - h);
            minus = sk_effector_frame(&t, q, joint, offset);
            q[c] = keep;
            col[0] = ((double)plus.pos.x - (double)minus.pos.x) / (2 * h);
            col[1] = ((double)plus.pos.y - (double)minus.pos.y) / (2 * h);
            col[2] = ((double)plus.pos.z - (double)minus.pos.z) / (2 * h);
            d = ik_quat_mul(plus.rot, ik_quat_conjugate(minus.rot)); // (world angular velocity)
            if (d.w < 0)
                d = ik_quat_make(-d.x, -d.y, -d.z, -d.w);
            col[3] = 2 * (double)d.x / (2 * h), col[4] = 2 * (double)d.y / (2 * h);
            col[5] = 2 * (double)d.z / (2 * h);
            for (r = 0; r < 6; r++)
                worst = fmax(worst, fabs((double)jac[r * t.dof + c] - col[r]));
        }
    }
    printf("  skeleton jacobian: 500 random trees and frames, worst |J - central difference| "
           "%.3g\n",
           worst);
    CHECK_NEAR(worst, 0, TOL(1e-7, 2e-2));
}

// A chain solved as a one-branch skeleton with one pose effector: ik_jacobian_solve()'s answer.
static void test_skeleton_as_chain(void)
{
    test_rng rng = { 303 };
    double worst = 0;
    int trial, c,
        same = 0, both_converged = 0, chain_converged = 0,
        methods[4] = { IK_JACOBIAN_DLS, IK_JACOBIAN_PINV, IK_JACOBIAN_SDLS, IK_JACOBIAN_TRANSPOSE };
    static unsigned char scratch[1 << 16];
    for (trial = 0; trial < 400; trial++) {
        sk_tree t;
        ik_real q_chain[SK_DOF], q_skel[SK_DOF], truth[SK_DOF];
        ik_xform frames[SK_MAX];
        ik_chain chain;
        ik_skeleton one;
        ik_target target;
        ik_effector e;
        ik_jacobian_opts o = ik_default_jacobian_opts();
        ik_solve_info ci, si;
        ik_effector_info ei;
        int n = 2 + (int)(test_rng_next(&rng) % 10), pose = trial % 2;
        sk_random_tree(&rng, n, 0, trial % 3 == 0, &t);
        sk_random_state(&rng, &t, 2, truth);
        one = ik_skeleton_make(t.joints, NULL, n);
        chain = ik_chain_make(t.joints, n, ik_xform_identity());
        ik_skeleton_fk(&one, truth, frames);
        target = pose ? ik_target_pose(frames[n - 1]) : ik_target_position(frames[n - 1].pos);
        e = ik_effector_make(n - 1, ik_xform_identity(),
                             pose ? IK_EFFECTOR_POSE : IK_EFFECTOR_POSITION, frames[n - 1].pos);
        e.target_rot = frames[n - 1].rot;
        o.method = (ik_jacobian_method)methods[trial % 4];
        o.orientation_weight = IK_R(0.3);
        sk_random_state(&rng, &t, 2, q_chain);
        memcpy(q_skel, q_chain, sizeof q_chain);
        CHECK(ik_jacobian_solve(&chain, &target, &o, q_chain, scratch, sizeof scratch, &ci) ==
              IK_OK);
        CHECK(ik_skeleton_solve(&one, &e, 1, &o, q_skel, scratch, sizeof scratch, &si, &ei) ==
              IK_OK);
        CHECK(ei.met == (si.status == IK_STATUS_CONVERGED));
        both_converged += ci.status == IK_STATUS_CONVERGED && si.status == IK_STATUS_CONVERGED;
        chain_converged += ci.status == IK_STATUS_CONVERGED;
#if !TEST_FAST_MATH // (-ffast-math may contract the two callers' sums differently: the runs part)
        CHECK(ci.status == si.status && ci.iterations == si.iterations);
#endif
        for (c = 0; c < t.dof; c++)
            worst = fmax(worst, fabs((double)q_chain[c] - (double)q_skel[c]));
        same += memcmp(q_chain, q_skel, (size_t)t.dof * sizeof *q_chain) == 0;
    }
    printf("  one-branch skeletons: 400 chains, %d answers the chain solver's to the bit, worst "
           "difference %.3g\n",
           same, worst);
#if !TEST_FAST_MATH
    CHECK(same == 400);
    CHECK_NEAR(worst, 0, TOL(1e-9, 1e-3));
#endif
    CHECK(both_converged >= chain_converged - 8); // (-ffast-math: most converge either way)
}

// Effectors of random kinds on random joints whose targets the state truth reaches.
static int sk_random_effectors(test_rng *rng, const sk_tree *t, const ik_real *truth, int count,
                               int kind, ik_effector *e)
{
    ik_xform frames[SK_MAX];
    int k;
    ik_skeleton_fk(&t->skeleton, truth, frames);
    for (k = 0; k < count; k++) {
        int joint = (int)(test_rng_next(rng) % (uint64_t)t->n);
        ik_vec3 at = test_rng_vec3(rng, -0.2, 0.2); // (one draw a statement)
        ik_xform offset = ik_xform_make(test_rng_quat(rng), at);
        ik_xform f = ik_xform_mul(frames[joint], offset);
        ik_effector_kind kd = (ik_effector_kind)(kind >= 0 ? kind : (int)(test_rng_next(rng) % 5));
        ik_vec3 axis = ik_vec3_normalize(test_rng_vec3(rng, -1, 1)),
                a = ik_quat_rotate(f.rot, axis);
        e[k] = ik_effector_make(joint, offset, kd, f.pos);
        e[k].axis = axis;
        e[k].target_rot = f.rot;
        if (kd == IK_EFFECTOR_AIM)
            e[k].target = ik_vec3_add_scaled(f.pos, a, (ik_real)test_rng_uniform(rng, 0.3, 2));
        else if (kd == IK_EFFECTOR_DIRECTION)
            e[k].target = ik_vec3_scale(a, (ik_real)test_rng_uniform(rng, 0.5, 3));
        else if (kd == IK_EFFECTOR_FREE_AXIS) // (any spin about the axis is as good)
            e[k].target_rot = ik_quat_mul(
                f.rot, ik_quat_from_axis_angle(axis, (ik_real)test_rng_uniform(rng, -3, 3)));
    }
    return count;
}

// An effector's distance and angle from its goal at q, measured here from FK.
static void sk_effector_errors(const sk_tree *t, const ik_real *q, const ik_effector *e,
                               double *pos, double *rot)
{
    ik_xform f = sk_effector_frame(t, q, e->joint, e->offset);
    ik_vec3 a = ik_quat_rotate(f.rot, e->axis), d = e->target;
    *pos = *rot = 0;
    if (e->kind == IK_EFFECTOR_POSITION || e->kind == IK_EFFECTOR_POSE ||
        e->kind == IK_EFFECTOR_FREE_AXIS)
        *pos = test_vec3_dist(f.pos, e->target);
    if (e->kind == IK_EFFECTOR_POSE)
        *rot = test_quat_angle(f.rot, e->target_rot);
    if (e->kind == IK_EFFECTOR_AIM)
        d = ik_vec3_sub(e->target, f.pos);
    if (e->kind == IK_EFFECTOR_FREE_AXIS)
        d = ik_quat_rotate(e->target_rot, e->axis);
    if (e->kind >= IK_EFFECTOR_AIM) {
        d = ik_vec3_normalize(d);
        *rot = atan2((double)ik_vec3_length(ik_vec3_cross(a, d)), (double)ik_vec3_dot(a, d));
    }
}

// Whether every joint value of q is within its limits.
static bool sk_within_limits(const sk_tree *t, const ik_real *q)
{
    int i, c = 0;
    bool ok = true;
    for (i = 0; i < t->n; i++) {
        const ik_joint *j = &t->joints[i];
        if (j->type == IK_JOINT_BALL) {
            ok = ok && (!j->limit ||
                        ik_ball_limit_contains(
                            j->limit, ik_quat_from_expmap(ik_vec3_make(q[c], q[c + 1], q[c + 2]))));
            c += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            ok = ok && q[c] >= j->lo && q[c] <= j->hi;
            c++;
        }
    }
    return ok;
}

// A start near truth: each value moved by up to 0.1 (balls projected into their limits, hinges
// clamped).
static void sk_near(test_rng *rng, const sk_tree *t, const ik_real *truth, ik_real *q)
{
    int i, c = 0, k;
    for (i = 0; i < t->n; i++) {
        const ik_joint *j = &t->joints[i];
        int nd = ik_joint_type_dof(j->type);
        for (k = 0; k < nd; k++)
            q[c + k] = truth[c + k] + (ik_real)test_rng_uniform(rng, -0.1, 0.1);
        if (nd == 1)
            q[c] = q[c] < j->lo ? j->lo : q[c] > j->hi ? j->hi : q[c];
        if (nd == 3 && j->limit) {
            ik_vec3 v = ik_quat_to_expmap(ik_ball_limit_project(
                j->limit, ik_quat_from_expmap(ik_vec3_make(q[c], q[c + 1], q[c + 2]))));
            q[c] = v.x, q[c + 1] = v.y, q[c + 2] = v.z;
        }
        c += nd;
    }
}

// Each kind alone, then 2 to 5 effectors of mixed kinds, on random (limited) trees from near
// starts: solved, every effector's FK at its target, every limit held.
static void test_skeleton_kinds(void)
{
    static unsigned char scratch[1 << 17];
    static const char *names[6] = { "position", "pose", "aim", "direction", "free axis", "mixed" };
    test_rng rng = { 404 };
    int kind, trial, k;
    for (kind = 0; kind < 6; kind++) {
        int solved = 0, outside = 0, runs = 600, met_wrong = 0;
        double worst_pos = 0, worst_rot = 0;
        for (trial = 0; trial < runs; trial++) {
            sk_tree t;
            ik_real truth[SK_DOF], q[SK_DOF];
            ik_effector e[5];
            ik_effector_info ei[5];
            ik_solve_info info;
            int count = kind < 5 ? 1 : 2 + trial % 4;
            sk_random_tree(&rng, 3 + (int)(test_rng_next(&rng) % 18), trial % 2, trial % 3 == 0,
                           &t);
            sk_random_state(&rng, &t, 1.5, truth);
            sk_random_effectors(&rng, &t, truth, count, kind < 5 ? kind : -1, e);
            sk_near(&rng, &t, truth, q);
            CHECK(ik_skeleton_solve(&t.skeleton, e, count, NULL, q, scratch, sizeof scratch, &info,
                                    ei) == IK_OK);
            outside += !sk_within_limits(&t, q);
            if (info.status != IK_STATUS_CONVERGED)
                continue;
            solved++;
            for (k = 0; k < count; k++) {
                double pos, rot;
                sk_effector_errors(&t, q, &e[k], &pos, &rot);
                worst_pos = fmax(worst_pos, pos);
                worst_rot = fmax(worst_rot, rot);
                met_wrong += !ei[k].met;
            }
        }
        printf("  skeleton %s: %d/%d near starts solved, worst error %.3g (position) %.3g rad; "
               "%d outside limits\n",
               names[kind], solved, runs, worst_pos, worst_rot, outside);
        CHECK(solved >= runs * 97 / 100);
        CHECK(outside == 0 && met_wrong == 0);
        CHECK_NEAR(worst_pos, 0, TOL(1e-8, 1e-3));
        CHECK_NEAR(worst_rot, 0, TOL(1e-8, 2e-3));
    }
}

// Priority 0 (a pose) met exactly while priority 1 (a position) pulls toward a target out of
// reach; with one priority the same pull moves the pose off. Priority 0's error is never worse
// than it is solved alone.
static void test_skeleton_priorities(void)
{
    static unsigned char scratch[1 << 17];
    test_rng rng = { 505 };
    int trial, runs = 500, first_met = 0, equal_met = 0, alone_met = 0, second_better = 0;
    double worst0 = 0;
    for (trial = 0; trial < runs; trial++) {
        sk_tree t;
        ik_real truth[SK_DOF], start[SK_DOF], q[SK_DOF];
        ik_effector e[2];
        ik_effector_info ei[2];
        ik_solve_info info;
        ik_jacobian_opts o = ik_default_jacobian_opts();
        double pos0, rot0, far_prio, far_alone;
        sk_random_tree(&rng, 8 + (int)(test_rng_next(&rng) % 12), 0, false, &t);
        sk_random_state(&rng, &t, 1.5, truth);
        sk_random_effectors(&rng, &t, truth, 1, IK_EFFECTOR_POSE, e);
        sk_random_effectors(&rng, &t, truth, 1, IK_EFFECTOR_POSITION, e + 1);
        e[1].target = ik_vec3_add(e[1].target, test_rng_vec3(&rng, -2, 2));
        e[1].priority = 1;
        o.max_iterations = 200;
        sk_near(&rng, &t, truth, start);
        memcpy(q, start, sizeof q);
        ik_skeleton_solve(&t.skeleton, e, 1, &o, q, scratch, sizeof scratch, &info, ei);
        alone_met += ei[0].met;
        sk_effector_errors(&t, q, &e[1], &far_alone, &rot0);
        memcpy(q, start, sizeof q);
        CHECK(ik_skeleton_solve(&t.skeleton, e, 2, &o, q, scratch, sizeof scratch, &info, ei) ==
              IK_OK);
        sk_effector_errors(&t, q, &e[0], &pos0, &rot0);
        first_met += ei[0].met && pos0 <= TOL(1e-8, 1e-3) && rot0 <= TOL(1e-8, 2e-3);
        worst0 = fmax(worst0, fmax(pos0, rot0));
        sk_effector_errors(&t, q, &e[1], &far_prio, &rot0);
        e[1].priority = 0;
        memcpy(q, start, sizeof q);
        ik_skeleton_solve(&t.skeleton, e, 2, &o, q, scratch, sizeof scratch, &info, ei);
        equal_met += ei[0].met;
        second_better += far_prio <= far_alone + TOL(1e-9, 1e-4); // (float: its tolerance)
    }
    printf("  priorities: priority 0 (a pose) met alone %d/%d; under a priority 1 pull out of "
           "reach %d (worst error %.3g), priority 1 nearer its target than without it in %d; the "
           "pull at priority 0: priority 0 met %d\n",
           alone_met, runs, first_met, worst0, second_better, equal_met);
    CHECK(alone_met == runs);
    CHECK(first_met == runs);
    CHECK(second_better >= runs * 99 / 100); // (else a local minimum elsewhere)
    CHECK(equal_met < runs / 10);
}

// blend 0 holds an effector where it starts; 0.5 takes it halfway to a reachable target.
static void test_skeleton_blend(void)
{
    static unsigned char scratch[1 << 17];
    test_rng rng = { 606 };
    int trial, runs = 300, halfway = 0, held = 0, solved = 0;
    for (trial = 0; trial < runs; trial++) {
        sk_tree t;
        ik_real truth[SK_DOF], q[SK_DOF], start[SK_DOF];
        ik_effector e[2];
        ik_solve_info info;
        ik_xform before;
        double pos, rot;
        sk_random_tree(&rng, 6 + (int)(test_rng_next(&rng) % 10), 0, false, &t);
        sk_random_state(&rng, &t, 1.5, truth);
        sk_random_effectors(&rng, &t, truth, 2, IK_EFFECTOR_POSITION, e);
        sk_near(&rng, &t, truth, start);
        memcpy(q, start, sizeof q);
        e[0].blend = 0;
        e[1].blend = IK_R(0.5);
        before = sk_effector_frame(&t, start, e[1].joint, e[1].offset);
        CHECK(ik_skeleton_solve(&t.skeleton, e, 2, NULL, q, scratch, sizeof scratch, &info, NULL) ==
              IK_OK);
        if (info.status != IK_STATUS_CONVERGED)
            continue;
        solved++;
        e[0].target = sk_effector_frame(&t, start, e[0].joint, e[0].offset).pos;
        sk_effector_errors(&t, q, &e[0], &pos, &rot);
        held += pos <= TOL(1e-8, 1e-4);
        e[1].target = ik_vec3_lerp(before.pos, e[1].target, IK_R(0.5));
        sk_effector_errors(&t, q, &e[1], &pos, &rot);
        halfway += pos <= TOL(1e-8, 1e-4);
    }
    printf("  blend: %d/%d solved (one effector held at blend 0, one halfway to its target at "
           "0.5): %d held, %d halfway\n",
           solved, runs, held, halfway);
    CHECK(solved >= runs / 2 && held == solved && halfway == solved);
}

// CCD on a chain as a one-branch skeleton with one effector (position or pose) against
// ik_ccd_solve(), with varied options: the same status and sweeps, q the same to rounding.
static void test_skeleton_ccd_as_chain(void)
{
    static unsigned char scratch[1 << 16];
    test_rng rng = { 707 };
    double worst = 0;
    int trial, c, same_status = 0, near_status = 0, runs = 400;
    for (trial = 0; trial < runs; trial++) {
        sk_tree t;
        ik_real q_chain[SK_DOF], q_skel[SK_DOF], truth[SK_DOF];
        ik_xform frames[SK_MAX];
        ik_chain chain;
        ik_skeleton one;
        ik_target target;
        ik_effector e;
        ik_ccd_opts o = ik_default_ccd_opts();
        ik_solve_info ci, si;
        ik_effector_info ei;
        int n = 2 + (int)(test_rng_next(&rng) % 10), pose = trial % 2;
        sk_random_tree(&rng, n, trial % 2, trial % 3 == 0, &t);
        sk_random_state(&rng, &t, 1.5, truth);
        one = ik_skeleton_make(t.joints, NULL, n);
        chain = ik_chain_make(t.joints, n, ik_xform_identity());
        ik_skeleton_fk(&one, truth, frames);
        target = pose ? ik_target_pose(frames[n - 1]) : ik_target_position(frames[n - 1].pos);
        e = ik_effector_make(n - 1, ik_xform_identity(),
                             pose ? IK_EFFECTOR_POSE : IK_EFFECTOR_POSITION, frames[n - 1].pos);
        e.target_rot = frames[n - 1].rot;
        o.max_sweeps = 200;
        if (trial % 4 == 1) // (and other options: a length scale, fixed weights, a step limit)
            o.length_scale = IK_R(2.5);
        if (trial % 4 == 2)
            o.position_weight = 1, o.orientation_weight = IK_R(0.5);
        if (trial % 4 == 3)
            o.max_angle = IK_R(0.4);
        sk_near(&rng, &t, truth, q_chain);
        memcpy(q_skel, q_chain, sizeof q_chain);
        CHECK(ik_ccd_solve(&chain, &target, &o, q_chain, scratch, sizeof scratch, &ci) == IK_OK);
        CHECK(ik_skeleton_ccd_solve(&one, &e, 1, &o, q_skel, scratch, sizeof scratch, &si, &ei) ==
              IK_OK);
        same_status += ci.status == si.status && ci.iterations == si.iterations;
        near_status += ci.status == si.status && abs(ci.iterations - si.iterations) <= 1;
        CHECK(ei.met == (si.status == IK_STATUS_CONVERGED));
        for (c = 0; c < t.dof && ci.status == IK_STATUS_CONVERGED && si.status == ci.status; c++)
            worst = fmax(worst, fabs((double)q_chain[c] - (double)q_skel[c]));
    }
    printf("  CCD, one-branch skeletons: %d/%d chains with ik_ccd_solve()'s status and sweeps (%d "
           "within a sweep), worst difference in q %.3g\n",
           same_status, runs, near_status, worst);
    // (where the error is within rounding of the tolerance, the chain's carried state and the
    // skeleton's forward kinematics may stop a sweep apart; in float, where a stop is slow, a few)
    CHECK(same_status >= (int)(runs * TOL(0.99, 0.85)) &&
          near_status >= (int)(runs * TOL(0.99, 0.95)));
    CHECK_NEAR(worst, 0, TOL(1e-9, 1e-3));
}

// CCD: each kind alone, then 2 to 5 effectors of mixed kinds, on random (limited) trees from near
// starts: solved, every effector's FK at its target, every limit held after every solve.
static void test_skeleton_ccd_kinds(void)
{
    static unsigned char scratch[1 << 17];
    static const char *names[6] = { "position", "pose", "aim", "direction", "free axis", "mixed" };
    static const int least[6] = { 288, 276, 292, 294, 276, 232 }; // (of 300; docs/skeletons.md)
    test_rng rng = { 808 };
    int kind, trial, k;
    for (kind = 0; kind < 6; kind++) {
        int solved = 0, outside = 0, runs = 300, met_wrong = 0;
        long sweeps = 0;
        double worst_pos = 0, worst_rot = 0;
        for (trial = 0; trial < runs; trial++) {
            sk_tree t;
            ik_real truth[SK_DOF], q[SK_DOF];
            ik_effector e[5];
            ik_effector_info ei[5];
            ik_solve_info info;
            ik_ccd_opts o = ik_default_ccd_opts();
            int count = kind < 5 ? 1 : 2 + trial % 4;
            o.max_sweeps = 1000;
            sk_random_tree(&rng, 3 + (int)(test_rng_next(&rng) % 18), trial % 2, trial % 3 == 0,
                           &t);
            sk_random_state(&rng, &t, 1.5, truth);
            sk_random_effectors(&rng, &t, truth, count, kind < 5 ? kind : -1, e);
            sk_near(&rng, &t, truth, q);
            CHECK(ik_skeleton_ccd_solve(&t.skeleton, e, count, &o, q, scratch, sizeof scratch,
                                        &info, ei) == IK_OK);
            outside += !sk_within_limits(&t, q);
            if (info.status != IK_STATUS_CONVERGED)
                continue;
            solved++;
            sweeps += info.iterations;
            for (k = 0; k < count; k++) {
                double pos, rot;
                sk_effector_errors(&t, q, &e[k], &pos, &rot);
                worst_pos = fmax(worst_pos, pos);
                worst_rot = fmax(worst_rot, rot);
                met_wrong += !ei[k].met;
            }
        }
        printf("  CCD skeleton %s: %d/%d near starts solved (mean %.1f sweeps), worst error %.3g "
               "(position) %.3g rad; %d outside limits\n",
               names[kind], solved, runs, solved ? (double)sweeps / solved : 0.0, worst_pos,
               worst_rot, outside);
        CHECK(solved >= least[kind]);
        CHECK(outside == 0 && met_wrong == 0);
        CHECK_NEAR(worst_pos, 0, TOL(1e-6, 1e-4));
        CHECK_NEAR(worst_rot, 0, TOL(1e-6, 1e-4));
    }
}

// CCD with priorities: a pose at priority 0 reachable from a near start, a position at priority
// 1 pulled up to 2 m off. Priority 0 met; priority 1 nearer its target than when priority 0 is
// solved alone; with both at priority 0, priority 0 is pulled off.
static void test_skeleton_ccd_priorities(void)
{
    static unsigned char scratch[1 << 17];
    test_rng rng = { 909 };
    int trial, runs = 300, first_met = 0, equal_met = 0, alone_met = 0, second_better = 0;
    for (trial = 0; trial < runs; trial++) {
        sk_tree t;
        ik_real truth[SK_DOF], start[SK_DOF], q[SK_DOF];
        ik_effector e[2];
        ik_effector_info ei[2];
        ik_solve_info info;
        ik_ccd_opts o = ik_default_ccd_opts();
        double pos0, rot0, far_prio, far_alone;
        sk_random_tree(&rng, 8 + (int)(test_rng_next(&rng) % 12), 0, false, &t);
        sk_random_state(&rng, &t, 1.5, truth);
        sk_random_effectors(&rng, &t, truth, 1, IK_EFFECTOR_POSE, e);
        sk_random_effectors(&rng, &t, truth, 1, IK_EFFECTOR_POSITION, e + 1);
        e[1].target = ik_vec3_add(e[1].target, test_rng_vec3(&rng, -2, 2));
        e[1].priority = 1;
        o.max_sweeps = 1000;
        sk_near(&rng, &t, truth, start);
        memcpy(q, start, sizeof q);
        CHECK(ik_skeleton_ccd_solve(&t.skeleton, e, 1, &o, q, scratch, sizeof scratch, &info, ei) ==
              IK_OK);
        alone_met += ei[0].met;
        sk_effector_errors(&t, q, &e[1], &far_alone, &rot0);
        memcpy(q, start, sizeof q);
        CHECK(ik_skeleton_ccd_solve(&t.skeleton, e, 2, &o, q, scratch, sizeof scratch, &info, ei) ==
              IK_OK);
        sk_effector_errors(&t, q, &e[0], &pos0, &rot0);
        first_met += ei[0].met && pos0 <= TOL(1e-6, 1e-4) && rot0 <= TOL(1e-6, 1e-4);
        sk_effector_errors(&t, q, &e[1], &far_prio, &rot0);
        second_better += far_prio <= far_alone + TOL(1e-9, 1e-4);
        e[1].priority = 0;
        memcpy(q, start, sizeof q);
        ik_skeleton_ccd_solve(&t.skeleton, e, 2, &o, q, scratch, sizeof scratch, &info, ei);
        equal_met += ei[0].met;
    }
    printf("  CCD priorities: priority 0 (a pose) met alone %d/%d; under a priority 1 pull out of "
           "reach %d, priority 1 nearer its target than without it in %d; the pull at priority 0: "
           "priority 0 met %d\n",
           alone_met, runs, first_met, second_better, equal_met);
    CHECK(first_met >= runs * 90 / 100);
    CHECK(second_better >= runs * 95 / 100);
    CHECK(equal_met < runs / 5);
}

// CCD, blend: 0 holds an effector where it starts; 0.5 takes it halfway to a reachable target.
static void test_skeleton_ccd_blend(void)
{
    static unsigned char scratch[1 << 17];
    test_rng rng = { 1010 };
    int trial, runs = 200, halfway = 0, held = 0, solved = 0;
    for (trial = 0; trial < runs; trial++) {
        sk_tree t;
        ik_real truth[SK_DOF], q[SK_DOF], start[SK_DOF];
        ik_effector e[2];
        ik_solve_info info;
        ik_ccd_opts o = ik_default_ccd_opts();
        ik_xform before;
        double pos, rot;
        sk_random_tree(&rng, 6 + (int)(test_rng_next(&rng) % 10), 0, false, &t);
        sk_random_state(&rng, &t, 1.5, truth);
        sk_random_effectors(&rng, &t, truth, 2, IK_EFFECTOR_POSITION, e);
        sk_near(&rng, &t, truth, start);
        memcpy(q, start, sizeof q);
        e[0].blend = 0;
        e[1].blend = IK_R(0.5);
        o.max_sweeps = 1000;
        before = sk_effector_frame(&t, start, e[1].joint, e[1].offset);
        CHECK(ik_skeleton_ccd_solve(&t.skeleton, e, 2, &o, q, scratch, sizeof scratch, &info,
                                    NULL) == IK_OK);
        if (info.status != IK_STATUS_CONVERGED)
            continue;
        solved++;
        e[0].target = sk_effector_frame(&t, start, e[0].joint, e[0].offset).pos;
        sk_effector_errors(&t, q, &e[0], &pos, &rot);
        held += pos <= TOL(1e-6, 1e-4);
        e[1].target = ik_vec3_lerp(before.pos, e[1].target, IK_R(0.5));
        sk_effector_errors(&t, q, &e[1], &pos, &rot);
        halfway += pos <= TOL(1e-6, 1e-4);
    }
    printf("  CCD blend: %d/%d solved (one effector held at blend 0, one halfway to its target at "
           "0.5): %d held, %d halfway\n",
           solved, runs, held, halfway);
    CHECK(solved >= runs / 2 && held == solved && halfway == solved);
}

// CCD on the humanoid (bench/humanoid.h: feet poses at priority 0, palms' poses and the gaze at
// priority 1): targets from the forward kinematics of its rest pose with every joint moved by up
// to 0.3 (within its limits), starts 0.1 from them, solved to 1e-4 m and 1e-3 rad.
static void test_skeleton_ccd_humanoid(void)
{
    static unsigned char scratch[1 << 17];
    static humanoid h;
    test_rng rng = { 1111 };
    sk_tree t; // (the humanoid's joints, for sk_near())
    ik_real rest[HUMANOID_DOF], truth[HUMANOID_DOF], q[HUMANOID_DOF];
    int trial, runs = 100, solved = 0, broken = 0, i;
    long sweeps = 0;
    CHECK(humanoid_build(&h) == IK_OK);
    humanoid_rest(&h, rest);
    t.n = HUMANOID_JOINTS;
    CHECK(HUMANOID_JOINTS <= SK_MAX);
    if (HUMANOID_JOINTS > SK_MAX)
        return;
    memcpy(t.joints, h.joints, sizeof h.joints);
    for (trial = 0; trial < runs; trial++) {
        ik_effector e[HUMANOID_EFFECTORS];
        ik_xform f[HUMANOID_EFFECTORS];
        ik_solve_info info;
        ik_ccd_opts o = ik_default_ccd_opts();
        o.max_sweeps = 1000;
        o.tolerance = IK_R(1e-4);
        o.rotation_tolerance = IK_R(1e-3);
        sk_near(&rng, &t, rest, truth); // (0.1 from rest, three times: up to 0.3)
        sk_near(&rng, &t, truth, q);
        sk_near(&rng, &t, q, truth);
        for (i = 0; i < 3; i++)
            truth[i] = rest[i]; // (the pelvis's position as at rest)
        sk_near(&rng, &t, truth, q);
        humanoid_effector_frames(&h, truth, f);
        humanoid_effectors(&h, f, f + 2,
                           ik_vec3_add(f[HUMANOID_GAZE].pos,
                                       ik_quat_rotate(f[HUMANOID_GAZE].rot, ik_vec3_make(0, 0, 1))),
                           e);
        CHECK(ik_skeleton_ccd_solve(&h.skeleton, e, HUMANOID_EFFECTORS, &o, q, scratch,
                                    sizeof scratch, &info, NULL) == IK_OK);
        broken += humanoid_limit_broken(&h, q) >= 0;
        solved += info.status == IK_STATUS_CONVERGED;
        sweeps += info.status == IK_STATUS_CONVERGED ? info.iterations : 0;
    }
    printf("  CCD humanoid: %d/%d near starts solved to 1e-4 m and 1e-3 rad (mean %.1f sweeps), "
           "%d with a limit broken\n",
           solved, runs, solved ? (double)sweeps / solved : 0.0, broken);
    CHECK(solved >= runs * 95 / 100 && broken == 0);
}

// CCD, bad input: a status code, q untouched.
static void test_skeleton_ccd_bad_input(void)
{
    static unsigned char scratch[1 << 16];
    ik_joint j[3];
    int parents[3] = { -1, 0, 0 }, k;
    ik_real q[3] = { IK_R(0.1), IK_R(0.2), IK_R(0.3) }, keep[3];
    ik_skeleton s;
    ik_effector e, b;
    ik_ccd_opts o = ik_default_ccd_opts();
    ik_solve_info info;
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 0, 1));
    j[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 1, 0)), ik_vec3_make(1, 0, 0));
    s = ik_skeleton_make(j, parents, 3);
    e = ik_effector_make(1, ik_xform_translation(ik_vec3_make(1, 0, 0)), IK_EFFECTOR_POSITION,
                         ik_vec3_make(1, 1, 0));
    memcpy(keep, q, sizeof q);
    CHECK(ik_skeleton_ccd_scratch_size(&s, 0) == 0 && ik_skeleton_ccd_scratch_size(NULL, 1) == 0);
    CHECK(ik_skeleton_ccd_solve(NULL, &e, 1, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
          IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_ccd_solve(&s, NULL, 1, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
          IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, NULL, q, NULL, sizeof scratch, NULL, NULL) ==
          IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_ccd_solve(&s, &e, 0, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, NULL, q, scratch,
                                ik_skeleton_ccd_scratch_size(&s, 1) - 2 * sizeof(ik_real), NULL,
                                NULL) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, NULL, (ik_real *)(void *)scratch, scratch,
                                sizeof scratch, NULL, NULL) == IK_ERR_BAD_ARG); // (q in scratch)
    o.max_sweeps = 0;
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, &o, q, scratch, sizeof scratch, NULL, NULL) ==
          IK_ERR_BAD_OPTS);
    CHECK(memcmp(q, keep, sizeof q) == 0);
    for (k = 0; k < 8; k++) {
        b = e;
        if (k == 0)
            b.joint = 3;
        if (k == 1)
            b.target.x = (ik_real)HUGE_VAL;
        if (k == 2)
            b.kind = IK_EFFECTOR_DIRECTION, b.target = ik_vec3_zero();
        if (k == 3)
            b.blend = IK_R(1.5);
        if (k == 4)
            b.priority = 2;
        if (k == 5)
            b.rotation_weight = -1;
        if (k == 6)
            b.kind = IK_EFFECTOR_AIM, b.axis = ik_vec3_make(0, 0, 2);
        if (k == 7)
            b.kind = IK_EFFECTOR_POSE, b.target_rot = ik_quat_make(0, 0, 0, 0);
        CHECK(ik_skeleton_ccd_solve(&s, &b, 1, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
              IK_ERR_BAD_ARG);
        CHECK(memcmp(q, keep, sizeof q) == 0);
    }
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, NULL, q, scratch, ik_skeleton_ccd_scratch_size(&s, 1),
                                &info, NULL) == IK_OK);
    CHECK(info.status == IK_STATUS_CONVERGED);
    o = ik_default_ccd_opts(); // (and the other statuses: one sweep; a target out of reach)
    o.max_sweeps = 1;
    memcpy(q, keep, sizeof q);
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, &o, q, scratch, sizeof scratch, &info, NULL) == IK_OK);
    CHECK(info.status == IK_STATUS_MAX_ITERATIONS && info.iterations == 1);
    e.target = ik_vec3_make(5, 1, 0);
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, NULL, q, scratch, sizeof scratch, &info, NULL) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE);
    CHECK_NEAR(info.position_error, sqrt(26.0) - 2, 1e-6); // (the arm pointing at it)
    j[0] = ik_joint_ball(ik_xform_identity());             // a term of weight 0 moves nothing
    s = ik_skeleton_make(j, NULL, 1);
    e = ik_effector_make(0, ik_xform_identity(), IK_EFFECTOR_DIRECTION, ik_vec3_make(1, 0, 0));
    o = ik_default_ccd_opts();
    o.orientation_weight = 0;
    memset(q, 0, sizeof q);
    CHECK(ik_skeleton_ccd_solve(&s, &e, 1, &o, q, scratch, sizeof scratch, &info, NULL) == IK_OK);
    CHECK(info.status == IK_STATUS_STALLED && q[0] == 0 && q[1] == 0 && q[2] == 0);
}

// Bad input: a status code, q untouched.
static void test_skeleton_bad_input(void)
{
    static unsigned char scratch[1 << 16];
    ik_joint j[3];
    int parents[3] = { -1, 0, 0 }, bad_parents[3] = { -1, 1, 0 }, k;
    ik_real q[3] = { IK_R(0.1), IK_R(0.2), IK_R(0.3) }, keep[3];
    ik_skeleton s, bad;
    ik_effector e, b;
    ik_xform frames[3];
    ik_jacobian_opts opts = ik_default_jacobian_opts();
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 0, 1));
    j[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 1, 0)), ik_vec3_make(1, 0, 0));
    s = ik_skeleton_make(j, parents, 3);
    bad = ik_skeleton_make(j, bad_parents, 3);
    e = ik_effector_make(1, ik_xform_identity(), IK_EFFECTOR_POSITION, ik_vec3_make(1, 1, 0));
    memcpy(keep, q, sizeof q);
    CHECK(ik_skeleton_validate(&s) == IK_OK && ik_skeleton_validate(&bad) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_validate(NULL) == IK_ERR_NULL_ARG && ik_skeleton_dof(&bad) == -1);
    CHECK(ik_skeleton_fk(&bad, q, frames) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_fk(&s, q, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_jacobian(&s, q, 3, ik_xform_identity(), (ik_real *)scratch, frames) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_solve(NULL, &e, 1, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
          IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_solve(&s, NULL, 1, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
          IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_solve(&s, &e, 0, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_solve(&s, &e, 1, NULL, q, scratch, 16, NULL, NULL) ==
          IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_skeleton_solve(&s, &e, 1, NULL, q, scratch, ik_skeleton_scratch_size(&s, &e, 1), NULL,
                            NULL) == IK_OK);
    memcpy(q, keep, sizeof q);
    for (k = 0; k < 11; k++) {
        b = e;
        if (k == 0)
            b.joint = 3;
        if (k == 1)
            b.target.x = (ik_real)HUGE_VAL;
        if (k == 2)
            b.kind = IK_EFFECTOR_DIRECTION, b.target = ik_vec3_zero();
        if (k == 3)
            b.blend = IK_R(1.5);
        if (k == 4)
            b.priority = 2;
        if (k == 5)
            b.position_weight = -1;
        if (k == 6)
            b.kind = IK_EFFECTOR_AIM, b.axis = ik_vec3_make(0, 0, 2);
        if (k == 7)
            b.kind = IK_EFFECTOR_POSE, b.target_rot = ik_quat_make(0, 0, 0, 0);
        if (k == 8) // (a weight whose rows' errors underflow: "met" at 0.2 m)
            b.position_weight = IK_R(1e-7);
        if (k == 9) // (one whose squares overflow float)
            b.position_weight = IK_R(1e7);
        if (k == 10) // (a rotation weight whose rows' errors underflow)
            b.kind = IK_EFFECTOR_POSE, b.rotation_weight = IK_R(1e-30);
        CHECK(ik_skeleton_solve(&s, &b, 1, &opts, q, scratch, sizeof scratch, NULL, NULL) ==
              IK_ERR_BAD_ARG);
        CHECK(ik_skeleton_ccd_solve(&s, &b, 1, NULL, q, scratch, sizeof scratch, NULL, NULL) ==
              IK_ERR_BAD_ARG);
        memcpy(q, keep, sizeof q);
        opts = ik_default_jacobian_opts();
    }
    b = ik_effector_make(1, ik_xform_identity(), IK_EFFECTOR_AIM, ik_vec3_zero());
    ik_skeleton_fk(&s, q, frames);
    b.target = ik_vec3_add(frames[1].pos, ik_vec3_make(IK_R(1e-170), 0, 0)); // (at its origin)
    {
        ik_solve_info at;
        CHECK(ik_skeleton_solve(&s, &b, 1, NULL, q, scratch, sizeof scratch, &at, NULL) == IK_OK &&
              at.status == IK_STATUS_CONVERGED);
        CHECK(ik_skeleton_ccd_solve(&s, &b, 1, NULL, q, scratch, sizeof scratch, &at, NULL) ==
                  IK_OK &&
              at.status == IK_STATUS_CONVERGED); // (CCD measured a direction from noise there)
        memcpy(q, keep, sizeof q);
    }
    CHECK(ik_skeleton_solve(&s, &e, 1, NULL, q, scratch, sizeof scratch, NULL,
                            (ik_effector_info *)(void *)q) == IK_ERR_BAD_ARG); // (infos over q)
    CHECK(memcmp(q, keep, sizeof q) == 0);
    CHECK(ik_skeleton_jacobian(&s, q, 1, ik_xform_identity(), (ik_real *)(void *)frames,
                               frames) == IK_ERR_BAD_ARG); // (the Jacobian over the frames)
}

// The layout-free parts of effectors redrawn for another solve from one prepared skeleton: targets
// the state truth reaches, offsets and axes, weights (those of 0 stay 0), blends.
static void sk_redraw_effectors(test_rng *rng, const sk_tree *t, const ik_real *truth, int count,
                                ik_effector *e)
{
    ik_effector fresh[5];
    int k;
    for (k = 0; k < count; k++) {
        const double scale = test_rng_uniform(rng, 0.25, 4);
        sk_random_effectors(rng, t, truth, 1, (int)e[k].kind, &fresh[k]);
        fresh[k].joint = e[k].joint, fresh[k].priority = e[k].priority;
        fresh[k].position_weight = e[k].position_weight * (ik_real)scale;
        fresh[k].rotation_weight = e[k].rotation_weight * (ik_real)(1 / scale);
        fresh[k].blend =
            test_rng_uniform(rng, 0, 1) < 0.5 ? 1 : (ik_real)test_rng_uniform(rng, 0, 1);
        e[k] = fresh[k];
    }
}

// Random effectors for a prepared skeleton: 1 to 5 of random kinds, both priorities, some weights
// 0 (rows left out).
static int sk_prepared_effectors(test_rng *rng, const sk_tree *t, const ik_real *truth,
                                 ik_effector *e)
{
    int k, count = 1 + (int)(test_rng_next(rng) % 5);
    sk_random_effectors(rng, t, truth, count, -1, e);
    for (k = 0; k < count; k++) {
        const uint64_t draw = test_rng_next(rng) % 8;
        e[k].priority = (int)(test_rng_next(rng) % 2);
        if (draw == 0)
            e[k].rotation_weight = 0;
        if (draw == 1 && e[k].kind != IK_EFFECTOR_POSITION)
            e[k].position_weight = 0;
    }
    return count;
}

// Whether two solves' answers are the same to the bit: result, q, info, each effector's info.
static bool sk_same_answer(ik_result r1, ik_result r2, const ik_real *q1, const ik_real *q2,
                           int dof, const ik_solve_info *i1, const ik_solve_info *i2,
                           const ik_effector_info *e1, const ik_effector_info *e2, int count)
{
    bool same = r1 == r2 && memcmp(q1, q2, (size_t)dof * sizeof *q1) == 0 &&
                i1->status == i2->status && i1->iterations == i2->iterations &&
                memcmp(&i1->position_error, &i2->position_error, sizeof(ik_real)) == 0 &&
                memcmp(&i1->rotation_error, &i2->rotation_error, sizeof(ik_real)) == 0;
    int k;
    for (k = 0; k < count; k++)
        same = same && e1[k].met == e2[k].met &&
               memcmp(&e1[k].position_error, &e2[k].position_error, sizeof(ik_real)) == 0 &&
               memcmp(&e1[k].rotation_error, &e2[k].rotation_error, sizeof(ik_real)) == 0;
    return same;
}

// Options for one solve of the prepared test: method, rest pose, ball parameters, iterations.
static ik_jacobian_opts sk_prepared_opts(test_rng *rng, const ik_real *rest)
{
    ik_jacobian_opts o = ik_default_jacobian_opts();
    const uint64_t draw = test_rng_next(rng);
    o.method = (ik_jacobian_method)(draw % 4);
    o.rest = draw / 4 % 2 ? rest : NULL;
    o.ball_param = draw / 8 % 4 == 0 ? IK_BALL_EULER : IK_BALL_EXPMAP;
    o.max_iterations = 20 + (int)(draw / 32 % 80);
    o.orientation_weight = draw / 2048 % 2 ? IK_R(0.4) : 0;
    return o;
}

// A prepared skeleton (at any alignment) against ik_skeleton_solve(): on random trees (limits and
// ball limits or none, every joint kind), random effectors of every kind, both priorities, some
// weights 0, and several solves from one prepared skeleton with other targets, offsets, axes,
// weights, blends and options, the same answers to the bit; the prepared memory never written.
static void test_skeleton_prepared(void)
{
    static unsigned char scratch[1 << 17], work[1 << 17], prepared[1 << 14], kept[1 << 14];
    test_rng rng = { 909 };
    int trial, runs = 300, solves = 0, same = 0, untouched = 0, converged = 0;
    for (trial = 0; trial < runs; trial++) {
        sk_tree t;
        ik_real truth[SK_DOF], rest[SK_DOF], q1[SK_DOF], q2[SK_DOF];
        ik_effector e[5];
        ik_solve_info i1, i2;
        ik_effector_info e1[5], e2[5];
        unsigned char *at = prepared + test_rng_next(&rng) % 8;
        size_t size;
        int count, solve, k;
        sk_random_tree(&rng, 2 + (int)(test_rng_next(&rng) % 20), trial % 2, trial % 3 != 0, &t);
        for (k = 0; trial % 10 == 9 && k < t.n; k++) // (planar trees too)
            t.joints[k] = ik_joint_revolute(ik_xform_translation(t.joints[k].origin.pos),
                                            ik_vec3_make(0, 0, 1));
        t.dof = ik_skeleton_dof(&t.skeleton);
        sk_random_state(&rng, &t, 1.5, truth);
        sk_random_state(&rng, &t, 0.5, rest);
        count = sk_prepared_effectors(&rng, &t, truth, e);
        size = ik_skeleton_prepared_size(&t.skeleton, e, count);
        CHECK(size > 0 && size + 8 <= sizeof prepared);
        CHECK(ik_skeleton_prepare(&t.skeleton, e, count, at, size) == IK_OK);
        memcpy(kept, at, size);
        for (solve = 0; solve < 4; solve++) {
            const ik_jacobian_opts o = sk_prepared_opts(&rng, rest);
            const size_t need = ik_skeleton_scratch_size(&t.skeleton, e, count);
            ik_result r1, r2;
            if (solve > 0) { // (other targets, weights, blends; the same layout)
                sk_random_state(&rng, &t, 1.5, truth);
                sk_redraw_effectors(&rng, &t, truth, count, e);
            }
            sk_near(&rng, &t, truth, q1);
            memcpy(q2, q1, sizeof q1);
            r1 = ik_skeleton_solve(&t.skeleton, e, count, &o, q1, scratch, need, &i1, e1);
            r2 = ik_skeleton_solve_prepared(at, e, count, &o, q2, work + solve, need, &i2, e2);
            solves++;
            same += sk_same_answer(r1, r2, q1, q2, t.dof, &i1, &i2, e1, e2, count);
            converged += r1 == IK_OK && i1.status == IK_STATUS_CONVERGED;
        }
        untouched += memcmp(kept, at, size) == 0;
    }
    printf("  prepared skeletons: %d solves (%d converged) from %d prepared, %d the same to the "
           "bit as ik_skeleton_solve(); prepared memory unchanged in %d\n",
           solves, converged, runs, same, untouched);
    CHECK(same == solves && untouched == runs);
    CHECK(converged >= solves / 5); // (they did work; blends, the transpose, few iterations)
}

// Every status of the prepared functions, and the caller's data untouched on error.
static void test_skeleton_prepared_errors(void)
{
    static unsigned char mem[1 << 12], kept[1 << 12], blank[1 << 12], copied[1 << 12];
    static ik_real scratch[(1 << 15) / sizeof(ik_real)];
    test_rng rng = { 910 };
    sk_tree t, bad;
    ik_real truth[SK_DOF], q[SK_DOF], q0[SK_DOF];
    ik_effector e[3], b[3];
    ik_solve_info info, info0;
    ik_effector_info out[3], out0[3];
    ik_jacobian_opts o = ik_default_jacobian_opts();
    size_t size, need;
    int k;
    sk_random_tree(&rng, 8, 1, true, &t);
    sk_random_state(&rng, &t, 1, truth);
    sk_random_effectors(&rng, &t, truth, 3, -1, e);
    e[0].kind = IK_EFFECTOR_POSE, e[1].kind = IK_EFFECTOR_FREE_AXIS, e[2].priority = 1;
    bad = t;
    bad.parents[3] = 3;
    bad.skeleton = ik_skeleton_make(bad.joints, bad.parents, bad.n);
    size = ik_skeleton_prepared_size(&t.skeleton, e, 3);
    need = ik_skeleton_scratch_size(&t.skeleton, e, 3);
    CHECK(size > 0 && size <= sizeof mem && need <= sizeof scratch);
    CHECK(ik_skeleton_prepared_size(NULL, e, 3) == 0);
    CHECK(ik_skeleton_prepared_size(&bad.skeleton, e, 3) == 0);
    CHECK(ik_skeleton_prepared_size(&t.skeleton, NULL, 3) == 0);
    CHECK(ik_skeleton_prepared_size(&t.skeleton, e, 0) == 0);
    CHECK(ik_skeleton_prepared_size(&t.skeleton, e, IK_MAX_EFFECTORS + 1) == 0);
    // prepare: each error, the memory untouched
    memset(mem, 0x5a, sizeof mem);
    memcpy(kept, mem, sizeof mem);
    memcpy(b, e, sizeof b);
    b[1].axis = ik_vec3_make(0, 0, 2);
    CHECK(ik_skeleton_prepare(NULL, e, 3, mem, size) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_prepare(&bad.skeleton, e, 3, mem, size) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, NULL, 3, mem, size) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 0, mem, size) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, b, 3, mem, size) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 3, NULL, size) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 3, mem, size - 1) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 3, (unsigned char *)t.joints + 8, size) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 3, (unsigned char *)t.parents + 4, size) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 3, (unsigned char *)&t.skeleton - 8, size) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 3, (unsigned char *)e + 8, size) == IK_ERR_BAD_ARG);
    CHECK(memcmp(mem, kept, sizeof mem) == 0);
    // solve_prepared: memory not prepared, then each error with the caller's data untouched
    sk_near(&rng, &t, truth, q0);
    memcpy(q, q0, sizeof q);
    CHECK(ik_skeleton_solve_prepared(mem, e, 3, NULL, q, scratch, need, NULL, NULL) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_prepare(&t.skeleton, e, 3, mem + 3, size) == IK_OK);
    memcpy(kept, mem, sizeof mem);
    memcpy(copied, mem, sizeof mem); // (a byte copy: its pointers are the original's)
    memset(&info, 0x77, sizeof info);
    memset(out, 0x77, sizeof out);
    info0 = info;
    memcpy(out0, out, sizeof out);
    for (k = 0; k < 28; k++) {
        const void *p = mem + 3;
        const ik_effector *pe = b;
        ik_real *pq = q, *rest = NULL;
        void *ps = scratch;
        size_t ss = need;
        ik_solve_info *pi = &info;
        ik_effector_info *po = out;
        int count = 3;
        ik_result want = IK_ERR_BAD_ARG, r;
        ik_real nan_rest[SK_DOF];
        memcpy(b, e, sizeof b);
        o = ik_default_jacobian_opts();
        memcpy(nan_rest, q0, sizeof nan_rest);
        switch (k) {
        case 0: p = NULL, want = IK_ERR_NULL_ARG; break;
        case 1: p = blank; break; // (not prepared)
        case 2: pe = NULL, want = IK_ERR_NULL_ARG; break;
        case 3: pq = NULL, want = IK_ERR_NULL_ARG; break;
        case 4: ps = NULL, want = IK_ERR_NULL_ARG; break;
        case 5: count = 2; break;
        case 6: b[0].joint = (b[0].joint + 1) % t.n; break;
        case 7: b[0].kind = IK_EFFECTOR_POSITION; break;
        case 8: b[2].priority = 0; break;
        case 9: b[1].rotation_weight = 0; break; // (rows left out: another layout)
        case 10: b[1].target.y = (ik_real)HUGE_VAL; break;
        case 11: b[0].target_rot = ik_quat_make(0, 0, 0, 0); break;
        case 12: b[2].blend = -1; break;
        case 13: q[1] = (ik_real)HUGE_VAL; break;
        case 14: o.damping = -1, want = IK_ERR_BAD_OPTS; break;
        case 15: nan_rest[0] = (ik_real)HUGE_VAL, rest = nan_rest; break;
        case 16: ss = 16, want = IK_ERR_SCRATCH_TOO_SMALL; break;
        case 17: ps = mem + 3 + size / 2; break; // (scratch over the prepared skeleton)
        case 18: pq = (ik_real *)(void *)(mem + size / 16 * 8); break; // (inside it)
        case 19: pi = (ik_solve_info *)(void *)(mem + size / 16 * 8); break;
        case 20: po = (ik_effector_info *)(void *)(mem + size / 16 * 8); break;
        case 21: pq = scratch + 4; break;
        case 22: pi = (ik_solve_info *)(void *)(scratch + 4); break;
        case 23: po = (ik_effector_info *)(void *)q; break;
        case 24: memcpy(scratch + 8, e, sizeof e), pe = (ik_effector *)(void *)(scratch + 8); break;
        case 25: ps = (unsigned char *)t.joints + 8; break;
        case 26: ps = (unsigned char *)t.parents, ss = 64; break;
        case 27: p = copied + 3; break; // (prepared memory copied elsewhere)
        }
        if (rest)
            o.rest = rest;
        r = ik_skeleton_solve_prepared(p, pe, count, &o, pq, ps, ss, pi, po);
        CHECK(r == want);
        if (r != want)
            printf("    prepared error case %d: %d, not %d\n", k, (int)r, (int)want);
        CHECK(memcmp(mem, kept, sizeof mem) == 0);
        CHECK(k == 13 || memcmp(q, q0, (size_t)t.dof * sizeof *q) == 0);
        CHECK(memcmp(&info, &info0, sizeof info) == 0 && memcmp(out, out0, sizeof out) == 0);
        memcpy(q, q0, sizeof q);
    }
    CHECK(ik_skeleton_solve_prepared(mem + 3, e, 3, NULL, q, scratch, need, &info, out) == IK_OK);
    CHECK(memcmp(mem, kept, sizeof mem) == 0);
}

// A floating root (ik_joints_floating_root()) carrying a random tree: random pose targets for
// the root's child and a position target further down are met from far starts (the root's six
// values free), and the root's values are its position and exponential map.
static void test_skeleton_floating_root(void)
{
    static unsigned char scratch[1 << 17];
    test_rng rng = { 707 };
    int trial, runs = 300, solved = 0, exact_root = 0;
    for (trial = 0; trial < runs; trial++) {
        sk_tree body, t;
        ik_real truth[SK_DOF], q[SK_DOF];
        ik_effector e[2];
        ik_solve_info info;
        ik_xform frames[SK_MAX], root;
        int i, n = 3 + (int)(test_rng_next(&rng) % 8);
        sk_random_tree(&rng, n, 0, false, &body);
        ik_joints_floating_root(t.joints);
        t.parents[0] = -1, t.parents[1] = 0, t.parents[2] = 1, t.parents[3] = 2;
        for (i = 0; i < n; i++) { // (the body hangs from the ball)
            t.joints[4 + i] = body.joints[i];
            t.parents[4 + i] = body.parents[i] < 0 ? 3 : body.parents[i] + 4;
        }
        t.n = n + 4;
        t.skeleton = ik_skeleton_make(t.joints, t.parents, t.n);
        t.dof = ik_skeleton_dof(&t.skeleton);
        sk_random_state(&rng, &t, 1.5, truth);
        for (i = 0; i < 3; i++)
            truth[i] = (ik_real)test_rng_uniform(&rng, -5, 5);
        ik_skeleton_fk(&t.skeleton, truth, frames);
        root = frames[3];
        exact_root +=
            test_vec3_dist(root.pos, ik_vec3_make(truth[0], truth[1], truth[2])) <
                TOL(1e-12, 1e-5) &&
            test_quat_angle(root.rot,
                            ik_quat_from_expmap(ik_vec3_make(truth[3], truth[4], truth[5]))) <
                TOL(1e-12, 1e-5);
        e[0] = ik_effector_make(3, ik_xform_identity(), IK_EFFECTOR_POSE, root.pos);
        e[0].target_rot = root.rot;
        e[1] = ik_effector_make(t.n - 1, ik_xform_identity(), IK_EFFECTOR_POSITION,
                                frames[t.n - 1].pos);
        memset(q, 0, sizeof q); // (the root at the origin, 5 m or so from its target)
        CHECK(ik_skeleton_solve(&t.skeleton, e, 2, NULL, q, scratch, sizeof scratch, &info, NULL) ==
              IK_OK);
        if (info.status == IK_STATUS_CONVERGED) {
            double pos, rot;
            solved++;
            sk_effector_errors(&t, q, &e[0], &pos, &rot);
            CHECK(pos <= TOL(1e-8, 1e-4) && rot <= TOL(1e-8, 2e-3));
        }
    }
    printf("  floating root: %d/%d solved from the origin (root and a point below it), the root's "
           "values its position and rotation in %d\n",
           solved, runs, exact_root);
    CHECK(exact_root == runs);
    CHECK(solved >= runs * 95 / 100);
}

void test_skeleton(void)
{
    RUN(test_skeleton_fk);
    RUN(test_skeleton_jacobian);
    RUN(test_skeleton_as_chain);
    RUN(test_skeleton_kinds);
    RUN(test_skeleton_priorities);
    RUN(test_skeleton_blend);
    RUN(test_skeleton_bad_input);
    RUN(test_skeleton_prepared);
    RUN(test_skeleton_prepared_errors);
    RUN(test_skeleton_floating_root);
    RUN(test_skeleton_ccd_as_chain);
    RUN(test_skeleton_ccd_kinds);
    RUN(test_skeleton_ccd_priorities);
    RUN(test_skeleton_ccd_blend);
    RUN(test_skeleton_ccd_humanoid);
    RUN(test_skeleton_ccd_bad_input);
}
