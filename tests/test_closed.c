/* Every solution in closed form (ik_chain_closed_form(), ik_closed_form_solve()): random arms of
   each class built from random DH tables, random states: the state is among the solutions, every
   solution's FK matches the target, 8 solutions at generic poses; singular and boundary poses;
   the classifier's answers and reasons; the shipped arms. */
#include "test.h"
#include "../bench/arms.h"
#include "../bench/industrial.h"
#include <math.h>
#include <string.h>

#define PI_D 3.14159265358979323846

// FK accuracy of every solution, as a fraction of the reach (position) and radians (rotation):
// double's rounding over six joints, float's over the same (about 10 ulp at the reach)
#define FK_TOL TOL(1e-12, 2e-5)
// ... at singular poses, where a step's rounding beyond its reach is clamped (up to 64 epsilon
// of the coordinates' size, about 3 here, a step): float's two such steps (shoulder and elbow
// at once) reach 4e-5; double's stay within the general bound
#define SINGULAR_FK_TOL TOL(1e-12, 1e-4)

typedef struct closed_arm {
    double dh[6][4]; // a, alpha, d, theta
    ik_joint joints[8];
    ik_chain chain;
    double reach;
} closed_arm;

// The arm of a classic DH table (6 rows) behind a random fixed base joint, limits +-pi.
static void closed_arm_from_dh(const double (*p)[4], test_rng *rng, closed_arm *arm)
{
    ik_dh_row dh[6];
    ik_xform tip;
    int i;
    memcpy(arm->dh, p, sizeof arm->dh);
    for (i = 0; i < 6; i++) {
        dh[i].type = IK_JOINT_REVOLUTE;
        dh[i].a = (ik_real)p[i][0];
        dh[i].alpha = (ik_real)p[i][1];
        dh[i].d = (ik_real)p[i][2];
        dh[i].theta = (ik_real)p[i][3];
        dh[i].lo = -IK_PI;
        dh[i].hi = IK_PI;
    }
    CHECK(ik_joints_from_dh(dh, 6, IK_DH_CLASSIC, arm->joints + 1, &tip) == IK_OK);
    arm->joints[0] = ik_joint_fixed(ik_xform_make(test_rng_quat(rng), test_rng_vec3(rng, -1, 1)));
    arm->chain = ik_chain_make(arm->joints, 7, tip);
    arm->reach = 0;
    for (i = 0; i < 6; i++)
        arm->reach += fabs(p[i][0]) + fabs(p[i][2]);
}

static double closed_twist(test_rng *rng, int ortho)
{
    double s = test_rng_uniform(rng, 0, 1) < 0.5 ? -1 : 1;
    return ortho ? s * PI_D / 2 : s * test_rng_uniform(rng, 0.3, 2.8);
}

// A random arm with a spherical wrist and axes 2 and 3 parallel (ortho: the OPW class).
static void closed_random_spherical(test_rng *rng, int ortho, closed_arm *arm)
{
    double p[6][4];
    int i;
    for (i = 0; i < 6; i++)
        p[i][3] = test_rng_uniform(rng, -PI_D, PI_D);
    p[0][0] = test_rng_uniform(rng, -0.3, 0.3), p[0][1] = closed_twist(rng, ortho);
    p[0][2] = test_rng_uniform(rng, 0.1, 0.6);
    p[1][0] = test_rng_uniform(rng, 0.2, 0.8), p[1][1] = 0;
    p[1][2] = ortho ? 0 : test_rng_uniform(rng, -0.2, 0.2);
    p[2][0] = test_rng_uniform(rng, -0.2, 0.2), p[2][1] = closed_twist(rng, ortho), p[2][2] = 0;
    p[3][0] = 0, p[3][1] = closed_twist(rng, ortho), p[3][2] = test_rng_uniform(rng, 0.2, 0.8);
    p[4][0] = 0, p[4][1] = closed_twist(rng, ortho), p[4][2] = 0;
    p[5][0] = 0, p[5][1] = 0, p[5][2] = test_rng_uniform(rng, 0.05, 0.3);
    if (ortho) // (OPW: axis 1 across axes 2 and 3, no offset along them)
        p[0][1] = PI_D / 2;
    closed_arm_from_dh((const double(*)[4])p, rng, arm);
}

// A random arm with axes 2, 3, 4 parallel and axes 5 and 6 meeting (ortho: axis 5 across axes
// 4 and 6, as the UR arms).
static void closed_random_parallel(test_rng *rng, int ortho, closed_arm *arm)
{
    double p[6][4];
    int i;
    for (i = 0; i < 6; i++)
        p[i][3] = test_rng_uniform(rng, -PI_D, PI_D);
    p[0][0] = test_rng_uniform(rng, -0.2, 0.2), p[0][1] = closed_twist(rng, 0);
    p[0][2] = test_rng_uniform(rng, 0.05, 0.3);
    p[1][0] = test_rng_uniform(rng, 0.2, 0.7), p[1][1] = 0;
    p[1][2] = test_rng_uniform(rng, -0.2, 0.2);
    p[2][0] = test_rng_uniform(rng, 0.2, 0.7), p[2][1] = 0;
    p[2][2] = test_rng_uniform(rng, -0.2, 0.2);
    p[3][0] = 0, p[3][1] = closed_twist(rng, ortho), p[3][2] = test_rng_uniform(rng, 0.05, 0.3);
    p[4][0] = 0, p[4][1] = closed_twist(rng, ortho), p[4][2] = test_rng_uniform(rng, 0.05, 0.3);
    p[5][0] = 0, p[5][1] = 0, p[5][2] = test_rng_uniform(rng, 0.05, 0.3);
    closed_arm_from_dh((const double(*)[4])p, rng, arm);
}

// The angle between a and b modulo whole turns.
static double closed_angle_diff(double a, double b)
{
    double d = fmod(fabs(a - b), 2 * PI_D);
    return d > PI_D ? 2 * PI_D - d : d;
}

// The largest FK error of the solutions (position / reach, rotation radians); NaN counts.
static double closed_fk_error(const closed_arm *arm, ik_xform target, const ik_closed_solution *s,
                              int n)
{
    double worst = 0, e;
    int i, j;
    for (i = 0; i < n; i++) {
        ik_xform fk;
        for (j = 0; j < 6; j++)
            if (!test_finite((double)s[i].q[j]))
                return HUGE_VAL;
        if (ik_chain_fk(&arm->chain, s[i].q, NULL, &fk) != IK_OK)
            return HUGE_VAL;
        e = test_vec3_dist(fk.pos, target.pos) / arm->reach;
        worst = e > worst ? e : worst;
        e = test_quat_angle(fk.rot, target.rot);
        worst = e > worst ? e : worst;
    }
    return worst;
}

// The smallest joint-space distance (modulo whole turns) from q to a solution.
static double closed_nearest(const ik_closed_solution *s, int n, const ik_real *q)
{
    double best = HUGE_VAL;
    int i, j;
    for (i = 0; i < n; i++) {
        double d = 0;
        for (j = 0; j < 6; j++)
            d += closed_angle_diff((double)s[i].q[j], (double)q[j]);
        best = d < best ? d : best;
    }
    return best;
}

// Random states of a random arm: solve, check; counts of the generic poses with 8 answers.
static void closed_check_random(closed_arm *arm, test_rng *rng, int states, double *worst_fk,
                                double *worst_q, int *eight)
{
    ik_closed_form cf;
    ik_closed_solution sol[64];
    ik_closed_info info;
    ik_real q[6];
    ik_xform target;
    int s, j;
    for (s = 0; s < states; s++) {
        double e;
        for (j = 0; j < 6; j++)
            q[j] = (ik_real)test_rng_uniform(rng, -PI_D, PI_D);
        CHECK(ik_chain_fk(&arm->chain, q, NULL, &target) == IK_OK);
        CHECK(ik_chain_closed_form(&arm->chain, &cf, NULL) != IK_CLOSED_FORM_NONE);
        CHECK(ik_closed_form_solve(&cf, target, NULL, NULL, sol, 64, &info) == IK_OK);
        CHECK(info.count == info.total && info.count >= 1);
        e = closed_fk_error(arm, target, sol, info.count);
        *worst_fk = e > *worst_fk ? e : *worst_fk;
        e = closed_nearest(sol, info.count, q);
        *worst_q = e > *worst_q ? e : *worst_q;
        *eight += info.branches == 8;
    }
}

static void test_closed_random_arms(void)
{
    test_rng rng = { 29 };
    closed_arm arm;
    int kind, a, eight[3] = { 0 }, arms = 40, states = 25;
    for (kind = 0; kind < 3; kind++) {
        double worst_fk = 0, worst_q = 0;
        for (a = 0; a < arms; a++) {
            ik_closed_form cf;
            const char *why;
            if (kind == 2)
                closed_random_parallel(&rng, a % 2, &arm);
            else
                closed_random_spherical(&rng, kind == 0, &arm);
            CHECK(ik_chain_closed_form(&arm.chain, &cf, &why) ==
                  (kind == 2 ? IK_CLOSED_FORM_THREE_PARALLEL : IK_CLOSED_FORM_SPHERICAL_WRIST));
            CHECK(cf.ortho_parallel == (kind == 0));
            closed_check_random(&arm, &rng, states, &worst_fk, &worst_q, &eight[kind]);
        }
        printf("  closed form kind %d: worst FK error %.3g, worst state recovery %.3g, %d of %d "
               "poses with 8\n",
               kind, worst_fk, worst_q, eight[kind], arms * states);
        CHECK(worst_fk <= FK_TOL);
        // (float: a state within a few float epsilon of a singular pose is defined to about
        // sqrt(epsilon) / the distance only; the FK check above holds everywhere)
        CHECK(worst_q <= TOL(1e-8, 1e-1));
    }
}

// The angle turning u toward v about the unit axis h (double).
static double closed_turn(ik_vec3 h, ik_vec3 u, ik_vec3 v)
{
    ik_vec3 uu = ik_vec3_sub(u, ik_vec3_scale(h, ik_vec3_dot(h, u)));
    ik_vec3 vv = ik_vec3_sub(v, ik_vec3_scale(h, ik_vec3_dot(h, v)));
    return atan2((double)ik_vec3_dot(h, ik_vec3_cross(uu, vv)), (double)ik_vec3_dot(uu, vv));
}

// Solves for FK(q), near q: no NaN, every FK matches, the nearest is q (to tol_q), and the
// nearest's flags include want; returns the nearest's flags.
static int closed_check_pose(const closed_arm *arm, const ik_closed_form *cf, const ik_real *q,
                             int want, double tol_q)
{
    ik_closed_solution sol[64];
    ik_closed_info info;
    ik_xform target;
    CHECK(ik_chain_fk(&arm->chain, q, NULL, &target) == IK_OK);
    CHECK(ik_closed_form_solve(cf, target, q, NULL, sol, 64, &info) == IK_OK);
    CHECK(info.count >= 1 && info.status == IK_STATUS_CONVERGED);
    if (info.count < 1)
        return 0;
    CHECK(closed_fk_error(arm, target, sol, info.count) <= SINGULAR_FK_TOL);
    CHECK(closed_nearest(sol, 1, q) <= tol_q);
    CHECK((sol[0].flags & want) == want);
    return sol[0].flags;
}

// Singular poses of random arms: the elbow straight, axes 4 and 6 in line: representatives with
// their flags, FK exact, the free angle near_state's.
static void test_closed_singular(void)
{
    test_rng rng = { 7 };
    closed_arm arm;
    ik_closed_form cf;
    ik_closed_solution sol[64];
    ik_closed_info info;
    ik_xform target;
    ik_real q[6];
    int a, j, kind, wrists = 0, missed = 0;
    for (a = 0; a < 30; a++)
        for (kind = 0; kind < 2; kind++) {
            const ik_vec3 *h = cf.axis, *p = cf.point;
            int free_joint = kind == 0 ? 3 : 5;
            if (kind == 0)
                closed_random_spherical(&rng, a % 2, &arm);
            else
                closed_random_parallel(&rng, a % 2, &arm);
            CHECK(ik_chain_closed_form(&arm.chain, &cf, NULL) != IK_CLOSED_FORM_NONE);
            for (j = 0; j < 6; j++)
                q[j] = (ik_real)test_rng_uniform(&rng, -3, 3);
            // the elbow straight: joint 3 turns the elbow's far point into the direction p3 - p2
            // (the state is defined to sqrt(epsilon) along the elbow: its FK is exact)
            q[2] = (ik_real)closed_turn(h[2], ik_vec3_sub(kind == 0 ? cf.centre : p[3], p[2]),
                                        ik_vec3_sub(p[2], p[1]));
            closed_check_pose(&arm, &cf, q, IK_CLOSED_ELBOW_SINGULAR, TOL(1e-5, 3e-2));
            // the flag only on answers with the elbow straight or folded (joint 3 at q3 or q3 + pi)
            CHECK(ik_chain_fk(&arm.chain, q, NULL, &target) == IK_OK);
            CHECK(ik_closed_form_solve(&cf, target, q, NULL, sol, 64, &info) == IK_OK);
            for (j = 0; j < info.count; j++)
                CHECK(!(sol[j].flags & IK_CLOSED_ELBOW_SINGULAR) ||
                      fabs(sin((double)(sol[j].q[2] - q[2]))) <= TOL(1e-5, 5e-2));
            q[2] = (ik_real)test_rng_uniform(&rng, -3, 3);
            // axes 4 and 6 in line (spherical), or axis 6 parallel to axis 2 (three parallel),
            // with axis 5 across them (a % 2): joint 4 or 6 free; other spherical wrists: axis 6
            // nearest axis 4 (a double answer, nothing free)
            q[4] = (ik_real)closed_turn(h[4], h[5], kind == 0 ? h[3] : h[1]);
            if (kind == 0 && a % 2 == 0)
                closed_check_pose(&arm, &cf, q, IK_CLOSED_WRIST_SINGULAR, 1e300);
            if (a % 2 == 0)
                continue;
            CHECK(ik_chain_fk(&arm.chain, q, NULL, &target) == IK_OK);
            CHECK(ik_closed_form_solve(&cf, target, q, NULL, sol, 64, &info) == IK_OK);
            CHECK(info.count >= 1 && closed_fk_error(&arm, target, sol, info.count) <= FK_TOL);
            wrists++;
            missed += !(sol[0].flags & IK_CLOSED_WRIST_SINGULAR) ||
                      !(fabs((double)(sol[0].q[free_joint] - q[free_joint])) <= TOL(1e-12, 1e-5));
        }
    // (float: where the other joints are near-singular too, the wrist's sine is known to a few
    // 1e-4 only: the free angle is then not recognized in 2 of the 30)
    CHECK(missed <= (int)TOL(0, 2));
    CHECK(wrists == 30);
}

// Three parallel axes with axis 6 in line with axis 2 (joint 6 free) and a near_state far from
// the state: joint 6 is moved off near_state's value where that value leaves the elbow's target
// out of reach, so every pose gets answers, exact (without that, 29 of these 600 got none).
static void test_closed_free_wrist(void)
{
    test_rng rng = { 41 };
    closed_arm arm;
    ik_closed_form cf;
    ik_closed_solution sol[64];
    ik_closed_info info;
    ik_xform target;
    ik_real q[6], near[6];
    int a, s, j, none = 0, poses = 0;
    double worst = 0, e;
    for (a = 0; a < 60; a++) {
        closed_random_parallel(&rng, 1, &arm);
        CHECK(ik_chain_closed_form(&arm.chain, &cf, NULL) == IK_CLOSED_FORM_THREE_PARALLEL);
        for (s = 0; s < 10; s++, poses++) {
            for (j = 0; j < 6; j++) {
                q[j] = (ik_real)test_rng_uniform(&rng, -3, 3);
                near[j] = (ik_real)test_rng_uniform(&rng, -3, 3);
            }
            q[4] = (ik_real)closed_turn(cf.axis[4], cf.axis[5], cf.axis[1]);
            CHECK(ik_chain_fk(&arm.chain, q, NULL, &target) == IK_OK);
            CHECK(ik_closed_form_solve(&cf, target, near, NULL, sol, 64, &info) == IK_OK);
            none += info.count == 0;
            e = closed_fk_error(&arm, target, sol, info.count);
            worst = e > worst ? e : worst;
        }
    }
    printf("  free wrist: %d of %d poses without an answer, worst FK error %.3g\n", none, poses,
           worst);
    CHECK(none == 0);
    CHECK(worst <= FK_TOL);
}

// The wrist centre on axis 1 of ortho-parallel arms: joint 1 free (near_state's), FK exact.
static void test_closed_shoulder(void)
{
    test_rng rng = { 11 };
    closed_arm arm;
    ik_closed_form cf;
    ik_closed_solution sol[64];
    ik_closed_info info;
    int a, tries, found = 0;
    for (a = 0; a < 20; a++) {
        closed_random_spherical(&rng, 1, &arm);
        CHECK(ik_chain_closed_form(&arm.chain, &cf, NULL) == IK_CLOSED_FORM_SPHERICAL_WRIST);
        for (tries = 0; tries < 20; tries++) {
            ik_real near[6] = { (ik_real)0.7, 0, 0, 0, 0, 0 };
            ik_quat rot = test_rng_quat(&rng);
            ik_mat3 rg =
                ik_mat3_mul(ik_quat_to_mat3(rot), ik_mat3_transpose(ik_quat_to_mat3(cf.home.rot)));
            ik_real s = (ik_real)test_rng_uniform(&rng, -1, 1);
            ik_vec3 c = ik_vec3_add(cf.point[0], ik_vec3_scale(cf.axis[0], s));
            ik_xform target = ik_xform_make(
                rot, ik_vec3_sub(c, ik_mat3_mul_vec3(rg, ik_vec3_sub(cf.centre, cf.home.pos))));
            CHECK(ik_closed_form_solve(&cf, target, near, NULL, sol, 64, &info) == IK_OK);
            if (info.count == 0)
                continue;
            found++;
            CHECK(closed_fk_error(&arm, target, sol, info.count) <= FK_TOL);
            CHECK((sol[0].flags & IK_CLOSED_SHOULDER_SINGULAR) != 0);
            CHECK_NEAR(sol[0].q[0], 0.7, TOL(1e-12, 1e-6));
            break;
        }
    }
    CHECK(found >= 10);
}

// No solution missed: ik_arm_solve from random starts converges only to listed solutions.
static void test_closed_complete(void)
{
    static unsigned char scratch[1 << 15];
    test_rng rng = { 5 };
    closed_arm arm;
    ik_closed_form cf;
    ik_closed_solution sol[64];
    ik_closed_info info;
    ik_arm_opts opts = ik_default_arm_opts();
    int a, s, j, converged = 0, listed = 0;
    opts.max_attempts = 1;
    opts.jacobian.max_iterations = 60;
    opts.jacobian.tolerance = opts.jacobian.rotation_tolerance = (ik_real)TOL(1e-9, 1e-5);
    for (a = 0; a < 6; a++) {
        ik_real q[6];
        ik_xform target;
        if (a % 3 == 2)
            closed_random_parallel(&rng, a % 2, &arm);
        else
            closed_random_spherical(&rng, a % 3 == 0, &arm);
        for (j = 0; j < 6; j++)
            q[j] = (ik_real)test_rng_uniform(&rng, -PI_D, PI_D);
        CHECK(ik_chain_fk(&arm.chain, q, NULL, &target) == IK_OK);
        CHECK(ik_chain_closed_form(&arm.chain, &cf, NULL) != IK_CLOSED_FORM_NONE);
        CHECK(ik_closed_form_solve(&cf, target, NULL, NULL, sol, 64, &info) == IK_OK);
        for (s = 0; s < 40; s++) {
            ik_solve_info si;
            ik_target t = ik_target_pose(target);
            for (j = 0; j < 6; j++)
                q[j] = (ik_real)test_rng_uniform(&rng, -PI_D, PI_D);
            CHECK(ik_arm_solve(&arm.chain, &t, &opts, q, scratch, sizeof scratch, &si) == IK_OK);
            if (si.status != IK_STATUS_CONVERGED)
                continue;
            converged++;
            listed += closed_nearest(sol, info.count, q) <= TOL(1e-6, 1e-2);
        }
    }
    CHECK(converged >= 60);
    CHECK(listed == converged);
}

// The shipped arms: classified (UR: three parallel; ABB, Fanuc, KUKA: ortho-parallel spherical
// wrists), 8 answers at a pose well inside the workspace, each state recovered.
static void test_closed_shipped_arms(void)
{
    test_rng rng = { 3 };
    int id, s, j;
    for (id = 0; id < INDUSTRIAL_COUNT; id++) {
        arm_def def;
        closed_arm arm;
        ik_closed_form cf;
        ik_closed_solution sol[64];
        ik_closed_info info;
        ik_xform target;
        ik_real q[6];
        const char *why = NULL;
        bool ur = id == INDUSTRIAL_UR5E || id == INDUSTRIAL_UR10;
        CHECK(industrial_build((industrial_id)id, &def) == IK_OK);
        arm.chain = def.chain;
        arm.reach = 1;
        CHECK(ik_chain_closed_form(&def.chain, &cf, &why) ==
              (ur ? IK_CLOSED_FORM_THREE_PARALLEL : IK_CLOSED_FORM_SPHERICAL_WRIST));
        CHECK(cf.ortho_parallel == !ur && why != NULL);
        for (s = 0; s < 50; s++) {
            // within the limits, joints 2 and 3 near the middle of the workspace
            for (j = 0; j < 6; j++)
                q[j] = (ik_real)test_rng_uniform(&rng, fmax((double)cf.lo[j], -PI_D),
                                                 fmin((double)cf.hi[j], PI_D));
            CHECK(ik_chain_fk(&def.chain, q, NULL, &target) == IK_OK);
            CHECK(ik_closed_form_solve(&cf, target, q, NULL, sol, 64, &info) == IK_OK);
            CHECK(info.count >= 1 && info.status == IK_STATUS_CONVERGED);
            CHECK(closed_fk_error(&arm, target, sol, info.count) <= FK_TOL);
            CHECK(closed_nearest(sol, 1, q) <= TOL(1e-8, 1e-1));
            CHECK((double)sol[0].distance <= TOL(1e-8, 1e-1) && sol[0].outside == 0);
        }
        // a pose in front of the arm, elbow and wrist bent: all 8
        q[0] = IK_R(0.3), q[1] = IK_R(-0.6), q[2] = IK_R(0.9);
        q[3] = IK_R(0.4), q[4] = IK_R(1.1), q[5] = IK_R(-0.5);
        CHECK(ik_chain_fk(&def.chain, q, NULL, &target) == IK_OK);
        CHECK(ik_closed_form_solve(&cf, target, NULL, NULL, sol, 64, &info) == IK_OK);
        CHECK(info.branches == 8);
    }
}

// A 6R chain described by DH rows (a, alpha, d) at theta 0.
static void closed_dh_chain(const double (*p)[3], closed_arm *arm)
{
    double full[6][4];
    test_rng rng = { 1 };
    int i;
    for (i = 0; i < 6; i++)
        full[i][0] = p[i][0], full[i][1] = p[i][1], full[i][2] = p[i][2], full[i][3] = 0;
    closed_arm_from_dh((const double(*)[4])full, &rng, arm);
}

// The classifier: each refusal with its reason; other chains refused.
static void test_closed_classifier(void)
{
    static const double h = PI_D / 2;
    // the UR5 with axes 5 and 6 apart; a spherical wrist with axes 2, 3 crossed; neither; axes 1
    // and 2 parallel; no elbow link across axes 2 and 3
    static const double apart[6][3] = { { 0, h, 0.1 }, { 0.4, 0, 0 },     { 0.4, 0, 0 },
                                        { 0, h, 0.1 }, { 0.05, -h, 0.1 }, { 0, 0, 0.1 } };
    static const double crossed[6][3] = { { 0, h, 0.3 }, { 0.4, h, 0 }, { 0.1, h, 0 },
                                          { 0, h, 0.4 }, { 0, -h, 0 },  { 0, 0, 0.1 } };
    static const double neither[6][3] = { { 0.1, h, 0.3 }, { 0.4, 0.3, 0 },  { 0.1, h, 0 },
                                          { 0.1, h, 0.4 }, { 0.1, -h, 0.2 }, { 0, 0, 0.1 } };
    static const double shoulder[6][3] = { { 0.2, 0, 0.3 }, { 0.4, 0, 0 }, { 0.1, h, 0 },
                                           { 0, h, 0.4 },   { 0, -h, 0 },  { 0, 0, 0.1 } };
    static const double no_link[6][3] = { { 0, h, 0.3 }, { 0, 0, 0.2 }, { 0.1, h, 0 },
                                          { 0, h, 0.4 }, { 0, -h, 0 },  { 0, 0, 0.1 } };
    const double(*cases[5])[3] = { apart, crossed, neither, shoulder, no_link };
    const char *words[5] = { "5 and 6 do not meet", "2 and 3 are not parallel",
                             "no spherical wrist", "1 and 2 are parallel", "elbow" };
    closed_arm arm;
    arm_def def;
    ik_closed_form cf;
    const char *why;
    test_rng rng = { 2 };
    int i;
    for (i = 0; i < 5; i++) {
        closed_dh_chain(cases[i], &arm);
        why = NULL;
        CHECK(ik_chain_closed_form(&arm.chain, &cf, &why) == IK_CLOSED_FORM_NONE);
        CHECK(cf.kind == IK_CLOSED_FORM_NONE && why && strstr(why, words[i]));
        if (!why || !strstr(why, words[i]))
            printf("  case %d: %s\n", i, why ? why : "(null)");
    }
    // 8 joints, a prismatic joint, an invalid chain, NULL
    CHECK(arm_build(ARM_IIWA14, &def) == IK_OK);
    def.joints[7] = def.joints[6];
    def.chain.joint_count = 8;
    CHECK(ik_chain_closed_form(&def.chain, &cf, &why) == IK_CLOSED_FORM_NONE);
    CHECK(strstr(why, "six or seven revolute") != NULL);
    closed_random_spherical(&rng, 1, &arm);
    arm.joints[3].type = IK_JOINT_PRISMATIC;
    CHECK(ik_chain_closed_form(&arm.chain, &cf, &why) == IK_CLOSED_FORM_NONE);
    CHECK(strstr(why, "six or seven revolute") != NULL);
    arm.joints[3].type = IK_JOINT_REVOLUTE;
    arm.joints[3].lo = 1, arm.joints[3].hi = -1;
    CHECK(ik_chain_closed_form(&arm.chain, &cf, &why) == IK_CLOSED_FORM_NONE);
    CHECK(strstr(why, "not valid") != NULL);
    CHECK(ik_chain_closed_form(NULL, &cf, &why) == IK_CLOSED_FORM_NONE);
    CHECK(ik_chain_closed_form(&arm.chain, NULL, NULL) == IK_CLOSED_FORM_NONE);
}

// Limits: the UR5e's +-2 pi joints list both whole-turn equivalents of every angle (64 a branch),
// sorted by weighted distance; a short out keeps the nearest; narrow limits flag and order
// solutions outside after those within; an unreachable target gives none.
static void test_closed_limits(void)
{
    arm_def def;
    closed_arm arm;
    ik_closed_form cf;
    ik_closed_solution all[600], few[5];
    ik_closed_info info, info_few;
    ik_xform target;
    ik_real q[6] = { IK_R(0.3), IK_R(-1.2), IK_R(1.4), IK_R(-0.4), IK_R(1.1), IK_R(-0.5) };
    ik_real near[6], weights[6] = { 4, 3, 2, 1, 1, 1 };
    int i, j;
    CHECK(industrial_build(INDUSTRIAL_UR5E, &def) == IK_OK);
    arm.chain = def.chain;
    arm.reach = 1;
    CHECK(ik_chain_closed_form(&def.chain, &cf, NULL) == IK_CLOSED_FORM_THREE_PARALLEL);
    CHECK(ik_chain_fk(&def.chain, q, NULL, &target) == IK_OK);
    for (j = 0; j < 6; j++) // (q with some joints a turn away: their equivalents are nearest)
        near[j] = q[j] + (j % 2 ? 2 * IK_PI : 0);
    CHECK(ik_closed_form_solve(&cf, target, near, weights, all, 600, &info) == IK_OK);
    CHECK(info.branches == 8 && info.total == 8 * 64 && info.count == info.total);
    CHECK(info.status == IK_STATUS_CONVERGED);
    CHECK(closed_fk_error(&arm, target, all, info.count) <= FK_TOL);
    CHECK((double)all[0].distance <= TOL(1e-12, 1e-4));
    for (j = 0; j < 6; j++)
        CHECK_NEAR(all[0].q[j], near[j], TOL(1e-12, 1e-4));
    for (i = 0; i < info.count; i++) {
        double d = 0;
        for (j = 0; j < 6; j++) {
            double e = (double)(all[i].q[j] - near[j]);
            d += (double)weights[j] * e * e;
            CHECK(all[i].q[j] >= cf.lo[j] && all[i].q[j] <= cf.hi[j]);
        }
        CHECK_NEAR(all[i].distance, sqrt(d), TOL(1e-12, 1e-5));
        CHECK(all[i].flags & IK_CLOSED_WITHIN_LIMITS);
        CHECK(i == 0 || all[i].distance >= all[i - 1].distance);
    }
    // five places: the five nearest, the total still counted
    CHECK(ik_closed_form_solve(&cf, target, near, weights, few, 5, &info_few) == IK_OK);
    CHECK(info_few.count == 5 && info_few.total == info.total);
    for (i = 0; i < 5; i++)
        CHECK(few[i].distance == all[i].distance);
    // joint 1 within 0.2 of 0.3 only: the branches with the other joint 1 (about pi away) are
    // outside, listed once each, after those within
    cf.lo[0] = IK_R(0.1), cf.hi[0] = IK_R(0.5);
    CHECK(ik_closed_form_solve(&cf, target, NULL, NULL, all, 600, &info) == IK_OK);
    CHECK(info.total == 4 * 32 + 4 && info.status == IK_STATUS_CONVERGED);
    for (i = 0; i < info.count; i++) {
        CHECK((all[i].outside == 0) == (i < 4 * 32));
        CHECK(all[i].outside == 0 || all[i].outside == 1);
        CHECK(((all[i].flags & IK_CLOSED_WITHIN_LIMITS) != 0) == (all[i].outside == 0));
    }
    cf.lo[0] = IK_R(2.0), cf.hi[0] = IK_R(2.2); // (neither joint 1 answer fits)
    CHECK(ik_closed_form_solve(&cf, target, NULL, NULL, all, 600, &info) == IK_OK);
    CHECK(info.total == 8 && info.status == IK_STATUS_LIMITED && all[0].outside == 1);
    // out of reach
    target.pos = ik_vec3_make(3, 0, 0);
    CHECK(ik_closed_form_solve(&cf, target, NULL, NULL, all, 600, &info) == IK_OK);
    CHECK(info.count == 0 && info.total == 0 && info.branches == 0);
    CHECK(info.status == IK_STATUS_UNREACHABLE);
}

// Bad input: an error, the outputs untouched.
static void test_closed_bad_input(void)
{
    arm_def def;
    ik_closed_form cf, none;
    ik_closed_solution out[2];
    ik_closed_info info;
    ik_xform good =
        ik_xform_make(ik_quat_identity(), ik_vec3_make(IK_R(0.4), IK_R(0.2), IK_R(0.3)));
    ik_xform bad = good;
    ik_real near[6] = { 0, 0, 0, 0, 0, 0 }, weights[6] = { 1, 1, 1, 1, 1, -1 };
    CHECK(industrial_build(INDUSTRIAL_KR6R900, &def) == IK_OK);
    CHECK(ik_chain_closed_form(&def.chain, &cf, NULL) == IK_CLOSED_FORM_SPHERICAL_WRIST);
    memset(&none, 0, sizeof none);
    memset(out, 0x5a, sizeof out);
    memset(&info, 0x5a, sizeof info);
    CHECK(ik_closed_form_solve(NULL, good, NULL, NULL, out, 2, &info) == IK_ERR_NULL_ARG);
    CHECK(ik_closed_form_solve(&cf, good, NULL, NULL, NULL, 2, &info) == IK_ERR_NULL_ARG);
    CHECK(ik_closed_form_solve(&cf, good, NULL, NULL, out, 2, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_closed_form_solve(&none, good, NULL, NULL, out, 2, &info) == IK_ERR_BAD_ARG);
    CHECK(ik_closed_form_solve(&cf, good, NULL, NULL, out, 0, &info) == IK_ERR_BAD_ARG);
    CHECK(ik_closed_form_solve(&cf, good, NULL, weights, out, 2, &info) == IK_ERR_BAD_ARG);
    near[2] = (ik_real)NAN;
    CHECK(ik_closed_form_solve(&cf, good, near, NULL, out, 2, &info) == IK_ERR_BAD_ARG);
    bad.pos.y = (ik_real)INFINITY;
    CHECK(ik_closed_form_solve(&cf, bad, NULL, NULL, out, 2, &info) == IK_ERR_BAD_ARG);
    bad = good;
    bad.rot.w = 2;
    CHECK(ik_closed_form_solve(&cf, bad, NULL, NULL, out, 2, &info) == IK_ERR_BAD_ARG);
    none = cf;
    none.lo[4] = (ik_real)NAN;
    CHECK(ik_closed_form_solve(&none, good, NULL, NULL, out, 2, &info) == IK_ERR_BAD_ARG);
    none.lo[4] = 1, none.hi[4] = -1;
    CHECK(ik_closed_form_solve(&none, good, NULL, NULL, out, 2, &info) == IK_ERR_BAD_ARG);
    CHECK(((const unsigned char *)out)[0] == 0x5a && ((const unsigned char *)&info)[0] == 0x5a);
    CHECK(ik_closed_form_solve(&cf, good, NULL, NULL, out, 2, &info) == IK_OK);
}

#ifndef IK_NO_FAST_PATHS
// ik_arm_solve() on an arm with a closed form: the first attempt starts from the answer within
// the limits nearest q, so one attempt of one iteration converges to it.
static void test_closed_arm_solve(void)
{
    static unsigned char scratch[1 << 15];
    test_rng rng = { 17 };
    int id, s, j, converged = 0, nearest = 0, cases = 0;
    for (id = 0; id < INDUSTRIAL_COUNT; id++) {
        arm_def def;
        ik_closed_form cf;
        ik_arm_opts o = ik_default_arm_opts();
        CHECK(industrial_build((industrial_id)id, &def) == IK_OK);
        CHECK(ik_chain_closed_form(&def.chain, &cf, NULL) != IK_CLOSED_FORM_NONE);
        o.max_attempts = 1;
        o.jacobian.max_iterations = 1;
        for (s = 0; s < 40; s++) {
            ik_real q[6], start[6];
            ik_xform pose;
            ik_target t;
            ik_solve_info info;
            ik_closed_solution best;
            ik_closed_info ci;
            for (j = 0; j < 6; j++) {
                double lo = fmax((double)cf.lo[j], -PI_D), hi = fmin((double)cf.hi[j], PI_D);
                q[j] = (ik_real)test_rng_uniform(&rng, lo, hi);
                start[j] = (ik_real)test_rng_uniform(&rng, lo, hi);
            }
            CHECK(ik_chain_fk(&def.chain, q, NULL, &pose) == IK_OK);
            t = ik_target_pose(pose);
            CHECK(ik_closed_form_solve(&cf, pose, start, NULL, &best, 1, &ci) == IK_OK);
            memcpy(q, start, sizeof q);
            CHECK(ik_arm_solve(&def.chain, &t, &o, q, scratch, sizeof scratch, &info) == IK_OK);
            cases++;
            converged += info.status == IK_STATUS_CONVERGED;
            for (j = 0; j < 6 && fabs((double)(q[j] - best.q[j])) <= TOL(1e-9, 1e-3); j++)
                ;
            nearest += j == 6;
        }
    }
    CHECK(converged == cases);
    CHECK(nearest == cases);
}
#endif

void test_closed(void)
{
    RUN(test_closed_random_arms);
    RUN(test_closed_singular);
    RUN(test_closed_free_wrist);
    RUN(test_closed_shoulder);
    RUN(test_closed_complete);
    RUN(test_closed_shipped_arms);
    RUN(test_closed_classifier);
    RUN(test_closed_limits);
    RUN(test_closed_bad_input);
#ifndef IK_NO_FAST_PATHS // (ik_arm_solve()'s closed-form start: a fast path, which the switch turns off)
    RUN(test_closed_arm_solve);
#endif
}
