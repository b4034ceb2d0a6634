/* The closed form of seven-joint arms with a spherical shoulder and wrist (SRS: the KUKA iiwa, a
   human arm): random geometries and states solved at their swivel (the state among the answers,
   every answer's FK and swivel right, 8 answers at generic poses), the swivel intervals against
   a dense sampling of the swivel, singular poses, the iiwa 14, bad input. */
#include "test.h"
#include "../bench/arms.h"
#include <math.h>
#include <string.h>

#define PI_D 3.14159265358979323846

// FK accuracy of every answer, as a fraction of the reach (position) and radians (rotation).
#define SRS_FK_TOL TOL(1e-12, 3e-5)
// A state found among the answers (radians, summed over the joints). (float: a state within a
// few float epsilon of a singular pose is defined to about sqrt(epsilon) / the distance only;
// the FK checks hold everywhere)
#define SRS_Q_TOL TOL(1e-7, 1e-1)

typedef struct srs_arm {
    ik_joint joints[8];
    ik_chain chain;
    double reach;
} srs_arm;

static double srs_twist(test_rng *rng, int ortho)
{
    double s = test_rng_uniform(rng, 0, 1) < 0.5 ? -1 : 1;
    return ortho ? s * PI_D / 2 : s * test_rng_uniform(rng, 0.4, 2.7);
}

// A random SRS arm from a classic DH table (a, alpha, d): the shoulder's axes meet (a1 = a2 = d2
// = 0), the wrist's meet (a5 = a6 = d6 = 0); ortho: twists +-pi/2 and no elbow offsets (the
// iiwa's shape); behind a random fixed base; joint j's limits +-limit[j].
static void srs_random_arm(test_rng *rng, int ortho, const double *limit, srs_arm *arm)
{
    double p[7][3];
    ik_dh_row dh[7];
    ik_xform tip;
    int i;
    memset(p, 0, sizeof p);
    for (i = 0; i < 6; i++)
        p[i][1] = srs_twist(rng, ortho);
    p[0][2] = test_rng_uniform(rng, 0.1, 0.4);
    p[2][2] = test_rng_uniform(rng, 0.25, 0.6);
    p[4][2] = test_rng_uniform(rng, 0.25, 0.6);
    p[6][2] = test_rng_uniform(rng, 0.05, 0.3);
    if (!ortho) { // offsets at the elbow and the tool
        p[2][0] = test_rng_uniform(rng, -0.1, 0.1);
        p[3][0] = test_rng_uniform(rng, -0.1, 0.1);
        p[3][2] = test_rng_uniform(rng, -0.1, 0.1);
        p[6][0] = test_rng_uniform(rng, -0.1, 0.1);
    }
    arm->reach = 0;
    for (i = 0; i < 7; i++) {
        dh[i].type = IK_JOINT_REVOLUTE;
        dh[i].a = (ik_real)p[i][0];
        dh[i].alpha = (ik_real)p[i][1];
        dh[i].d = (ik_real)p[i][2];
        dh[i].theta = (ik_real)test_rng_uniform(rng, -PI_D, PI_D);
        dh[i].lo = (ik_real)-limit[i];
        dh[i].hi = (ik_real)limit[i];
        arm->reach += fabs(p[i][0]) + fabs(p[i][2]);
    }
    CHECK(ik_joints_from_dh(dh, 7, IK_DH_CLASSIC, arm->joints + 1, &tip) == IK_OK);
    arm->joints[0] = ik_joint_fixed(ik_xform_make(test_rng_quat(rng), test_rng_vec3(rng, -1, 1)));
    arm->chain = ik_chain_make(arm->joints, 8, tip);
}

static double srs_angle_diff(double a, double b)
{
    double d = fmod(fabs(a - b), 2 * PI_D);
    return d > PI_D ? 2 * PI_D - d : d;
}

// The largest FK error of the answers (position / reach, rotation radians); NaN counts.
static double srs_fk_error(const ik_chain *chain, double reach, ik_xform target,
                           const ik_closed_solution *s, int n)
{
    double worst = 0, e;
    int i, j;
    for (i = 0; i < n; i++) {
        ik_xform fk;
        for (j = 0; j < 7; j++)
            if (!test_finite((double)s[i].q[j]))
                return HUGE_VAL;
        if (ik_chain_fk(chain, s[i].q, NULL, &fk) != IK_OK)
            return HUGE_VAL;
        e = test_vec3_dist(fk.pos, target.pos) / reach;
        worst = e > worst ? e : worst;
        e = test_quat_angle(fk.rot, target.rot);
        worst = e > worst ? e : worst;
    }
    return worst;
}

// The answer nearest q (modulo whole turns): its index, the distance into *d.
static int srs_nearest(const ik_closed_solution *s, int n, const ik_real *q, double *d)
{
    int i, j, best = -1;
    *d = HUGE_VAL;
    for (i = 0; i < n; i++) {
        double e = 0;
        for (j = 0; j < 7; j++)
            e += srs_angle_diff((double)s[i].q[j], (double)q[j]);
        if (e < *d)
            *d = e, best = i;
    }
    return best;
}

// srs_nearest() where joints a and a + 2 turn about one line (axes h[a], h[a + 2] at q = 0): only
// their sum (or difference, the axes opposite) counts.
static int srs_nearest_pair(const ik_closed_solution *s, int n, const ik_real *q, int a,
                            const ik_vec3 *h, double *d)
{
    double sign = (double)ik_vec3_dot(h[a], h[a + 2]) > 0 ? 1 : -1;
    int i, j, best = -1;
    *d = HUGE_VAL;
    for (i = 0; i < n; i++) {
        double e = srs_angle_diff((double)s[i].q[a] + sign * (double)s[i].q[a + 2],
                                  (double)q[a] + sign * (double)q[a + 2]);
        for (j = 0; j < 7; j++)
            e += j == a || j == a + 2 ? 0 : srs_angle_diff((double)s[i].q[j], (double)q[j]);
        if (e < *d)
            *d = e, best = i;
    }
    return best;
}

// Random states of arm solved at their swivel: FK, swivel and the state among the answers; the
// count of generic poses with 8 answers into *eight.
static void srs_check_states(const srs_arm *arm, test_rng *rng, int states, double *worst_fk,
                             double *worst_q, int *eight)
{
    ik_closed_form cf;
    ik_closed_solution sol[64];
    ik_closed_info info;
    ik_real q[7], sw, sw2;
    ik_xform target;
    double d;
    int s, j;
    CHECK(ik_chain_closed_form(&arm->chain, &cf, NULL) == IK_CLOSED_FORM_SRS);
    for (s = 0; s < states; s++) {
        double e;
        for (j = 0; j < 7; j++)
            q[j] = (ik_real)test_rng_uniform(rng, -PI_D, PI_D);
        CHECK(ik_chain_fk(&arm->chain, q, NULL, &target) == IK_OK);
        CHECK(ik_closed_form_swivel(&cf, q, &sw) == IK_OK);
        CHECK(ik_closed_form_solve_swivel(&cf, target, sw, NULL, NULL, sol, 64, &info) == IK_OK);
        CHECK(info.count == info.total && info.count >= 1);
        e = srs_fk_error(&arm->chain, arm->reach, target, sol, info.count);
        *worst_fk = e > *worst_fk ? e : *worst_fk;
        srs_nearest(sol, info.count, q, &d);
        *worst_q = d > *worst_q ? d : *worst_q;
        *eight += info.branches == 8;
        for (j = 0; j < info.count; j++) { // every answer at the swivel asked for
            CHECK(ik_closed_form_swivel(&cf, sol[j].q, &sw2) == IK_OK);
            CHECK(srs_angle_diff((double)sw, (double)sw2) < TOL(1e-8, 2e-3));
        }
        // without a swivel: near_state's, its nearest answer first
        CHECK(ik_closed_form_solve(&cf, target, q, NULL, sol, 1, &info) == IK_OK);
        CHECK(info.count == 1 && srs_nearest(sol, 1, q, &d) == 0 && d < SRS_Q_TOL);
    }
}

static void test_srs_random_arms(void)
{
    test_rng rng = { 71 };
    srs_arm arm;
    double free7[7] = { PI_D, PI_D, PI_D, PI_D, PI_D, PI_D, PI_D };
    int ortho, a, eight, arms = 30, states = 20;
    for (ortho = 0; ortho < 2; ortho++) {
        double worst_fk = 0, worst_q = 0;
        eight = 0;
        for (a = 0; a < arms; a++) {
            srs_random_arm(&rng, ortho, free7, &arm);
            srs_check_states(&arm, &rng, states, &worst_fk, &worst_q, &eight);
        }
        printf("    srs %s: %d arms x %d states: worst FK %.2e (of the reach, rad), worst "
               "state %.2e rad\n",
               ortho ? "ortho" : "general", arms, states, worst_fk, worst_q);
        printf("    8 answers at %d of %d poses\n", eight, arms * states);
        CHECK(worst_fk <= SRS_FK_TOL);
        CHECK(worst_q <= SRS_Q_TOL);
        // (ortho triples reach every rotation; general ones not all: fewer answers)
        CHECK(ortho ? eight == arms * states : eight >= arms * states / 2);
    }
}

// Whether psi lies in one of the n intervals of the branch (margin: how far inside).
static int srs_in_intervals(const ik_swivel_interval *iv, int n, int branch, double psi,
                            double margin, int *near_end)
{
    int i;
    *near_end = 0;
    for (i = 0; i < n; i++) {
        double lo = (double)iv[i].lo, hi = (double)iv[i].hi, x = psi;
        if (iv[i].branch != branch)
            continue;
        if (hi - lo >= 2 * PI_D - 1e-12)
            return 1;
        while (x < lo - margin)
            x += 2 * PI_D;
        if (fabs(x - lo) < margin || fabs(x - hi) < margin || fabs(x - 2 * PI_D - lo) < margin ||
            fabs(x - 2 * PI_D - hi) < margin)
            *near_end = 1;
        if (x >= lo && x <= hi)
            return 1;
    }
    return 0;
}

// The intervals of arm at target against solves at n_psi swivels: a branch within the limits at
// a swivel (away from the ends) iff the swivel is in one of its intervals; mismatches counted.
static int srs_check_intervals(const ik_closed_form *cf, ik_xform target, const ik_real *q,
                               int n_psi, int *sampled)
{
    static ik_closed_solution sol[1024]; // (8 answers, joints with two values within: 1024)
    ik_swivel_interval iv[128];
    ik_closed_info info;
    ik_real sw;
    int n, i, k, bad = 0, near_end, inside, branch;
    double d;
    CHECK(ik_closed_form_swivel_intervals(cf, target, iv, 128, &n) == IK_OK);
    CHECK(n <= 128);
    for (i = 1; i < n; i++) // by branch, then lo; lo in -pi..pi, hi within a turn of lo
        CHECK(iv[i].branch > iv[i - 1].branch || (iv[i].branch == iv[i - 1].branch &&
                                                  (double)iv[i].lo > (double)iv[i - 1].hi - 1e-12));
    for (i = 0; i < n; i++)
        CHECK(iv[i].lo >= -IK_PI && iv[i].lo <= IK_PI && iv[i].hi >= iv[i].lo &&
              iv[i].hi <= iv[i].lo + 2 * IK_PI);
    for (i = 0; i < n_psi; i++) {
        double psi = -PI_D + 2 * PI_D * (i + 0.5) / n_psi;
        int within = 0;
        CHECK(ik_closed_form_solve_swivel(cf, target, (ik_real)psi, NULL, NULL, sol, 1024, &info) ==
              IK_OK);
        CHECK(info.count == info.total);
        for (k = 0; k < info.count; k++)
            within |= sol[k].outside == 0 ? 1 << sol[k].branch : 0;
        for (branch = 0; branch < 8; branch++) {
            inside = srs_in_intervals(iv, n, branch, psi, TOL(1e-9, 1e-3), &near_end);
            bad += !near_end && inside != ((within >> branch) & 1);
        }
        (*sampled)++;
    }
    // the state's own swivel is in its branch's intervals
    CHECK(ik_closed_form_swivel(cf, q, &sw) == IK_OK);
    CHECK(ik_closed_form_solve_swivel(cf, target, sw, NULL, NULL, sol, 1024, &info) == IK_OK);
    k = srs_nearest(sol, info.count, q, &d);
    CHECK(k >= 0 && d < SRS_Q_TOL);
    if (k >= 0)
        CHECK(srs_in_intervals(iv, n, sol[k].branch, (double)sw, 0, &near_end));
    return bad;
}

static void test_srs_intervals(void)
{
    test_rng rng = { 72 };
    srs_arm arm;
    ik_closed_form cf;
    double limit[7];
    int a, s, j, bad = 0, sampled = 0, arms = 12, states = 4;
    for (a = 0; a < arms; a++) {
        for (j = 0; j < 7; j++) // (some joints' ranges over a turn: always within)
            limit[j] = test_rng_uniform(&rng, 0.6, 3.6);
        srs_random_arm(&rng, a % 2, limit, &arm);
        CHECK(ik_chain_closed_form(&arm.chain, &cf, NULL) == IK_CLOSED_FORM_SRS);
        for (s = 0; s < states; s++) {
            ik_real q[7];
            ik_xform target;
            for (j = 0; j < 7; j++) // (within the limits)
                q[j] = (ik_real)test_rng_uniform(&rng, -limit[j], limit[j]);
            CHECK(ik_chain_fk(&arm.chain, q, NULL, &target) == IK_OK);
            bad += srs_check_intervals(&cf, target, q, 720, &sampled);
        }
    }
    printf("    swivel intervals: %d mismatches in %d swivels x 8 branches\n", bad, sampled);
    CHECK(bad == 0);
}

// The KUKA iiwa 14 (bench/arms.h) with its limits: SRS; random states within the limits: the
// state among the answers at its swivel, within the limits, in its branch's intervals.
static void test_srs_iiwa(void)
{
    test_rng rng = { 73 };
    arm_def def;
    srs_arm arm;
    ik_closed_form cf;
    const char *reason = NULL;
    int s, j, bad = 0, sampled = 0;
    CHECK(arm_build(ARM_IIWA14, &def) == IK_OK);
    CHECK(ik_chain_closed_form(&def.chain, &cf, &reason) == IK_CLOSED_FORM_SRS);
    CHECK(reason && strstr(reason, "SRS") != NULL);
    memcpy(arm.joints, def.joints, sizeof arm.joints);
    arm.chain = ik_chain_make(arm.joints, def.chain.joint_count, def.chain.tip);
    arm.reach = 1.306;
    for (s = 0; s < 40; s++) {
        ik_real q[7];
        ik_xform target;
        for (j = 0; j < 7; j++)
            q[j] = (ik_real)test_rng_uniform(&rng, (double)cf.lo[j], (double)cf.hi[j]);
        CHECK(ik_chain_fk(&arm.chain, q, NULL, &target) == IK_OK);
        bad += srs_check_intervals(&cf, target, q, 360, &sampled);
    }
    CHECK(bad == 0);
    // another 7R arm is refused with its reason
    CHECK(arm_build(ARM_PANDA, &def) == IK_OK);
    CHECK(ik_chain_closed_form(&def.chain, &cf, &reason) == IK_CLOSED_FORM_NONE);
    CHECK(reason && strstr(reason, "seven joints") != NULL);
}

// Singular poses of the iiwa: the arm straight (elbow), joint 2 at 0 (shoulder: axes 1 and 3 in
// line), joint 6 at 0 (wrist): flags, FK exact, no NaN, the state recovered (the free angle
// near_state's); the arm straight along axis 1 (no swivel reference, no elbow side): FK exact.
static void test_srs_singular(void)
{
    static const int joint[3] = { 3, 1, 5 };
    static const int flag[3] = { IK_CLOSED_ELBOW_SINGULAR, IK_CLOSED_SHOULDER_SINGULAR,
                                 IK_CLOSED_WRIST_SINGULAR };
    test_rng rng = { 74 };
    arm_def def;
    ik_closed_form cf;
    ik_closed_solution sol[64];
    ik_closed_info info;
    int k, s, j, i;
    CHECK(arm_build(ARM_IIWA14, &def) == IK_OK);
    CHECK(ik_chain_closed_form(&def.chain, &cf, NULL) == IK_CLOSED_FORM_SRS);
    for (k = 0; k < 4; k++)
        for (s = 0; s < 10; s++) {
            ik_real q[7];
            ik_xform target;
            double d;
            for (j = 0; j < 7; j++)
                q[j] = (ik_real)test_rng_uniform(&rng, -1.5, 1.5);
            if (k < 3)
                q[joint[k]] = 0;
            else // (joints 2 and 4 at 0: the wrist centre on axis 1, above the shoulder)
                q[1] = q[3] = 0;
            CHECK(ik_chain_fk(&def.chain, q, NULL, &target) == IK_OK);
            CHECK(ik_closed_form_solve(&cf, target, q, NULL, sol, 64, &info) == IK_OK);
            CHECK(info.count >= 1);
            CHECK(srs_fk_error(&def.chain, 1.306, target, sol, info.count) <= TOL(1e-12, 1e-4));
            i = srs_nearest(sol, info.count, q, &d);
            if (k == 0)
                CHECK(i >= 0 && d < TOL(1e-6, 1e-1) && (sol[i].flags & flag[k]));
            else if (k < 3) { // (the pair in line: their sum; double: the first near_state's)
                i = srs_nearest_pair(sol, info.count, q, k == 1 ? 0 : 4, cf.axis, &d);
                CHECK(i >= 0 && d < TOL(1e-6, 1e-1) && (sol[i].flags & flag[k]));
#ifndef IK_USE_FLOAT
                CHECK(srs_nearest(sol, info.count, q, &d) == i && d < 1e-6);
#endif
            } else // (both at once: joints 1 and 3 in line to the elbow's rounding only)
                CHECK(sol[0].flags & IK_CLOSED_ELBOW_SINGULAR);
        }
}

// Out of reach: no answers, no intervals; the outputs of a bad call untouched.
static void test_srs_bad_input(void)
{
    arm_def def;
    ik_closed_form cf, six;
    ik_closed_solution sol[8], keep;
    ik_closed_info info;
    ik_swivel_interval iv[8], keep_iv;
    ik_real q[7] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7 }, sw = 5;
    ik_xform far = ik_xform_translation(ik_vec3_make(3, 0, 0));
    int n = -1;
    CHECK(arm_build(ARM_IIWA14, &def) == IK_OK);
    CHECK(ik_chain_closed_form(&def.chain, &cf, NULL) == IK_CLOSED_FORM_SRS);
    CHECK(ik_closed_form_solve_swivel(&cf, far, 0, NULL, NULL, sol, 8, &info) == IK_OK);
    CHECK(info.count == 0 && info.status == IK_STATUS_UNREACHABLE);
    CHECK(ik_closed_form_swivel_intervals(&cf, far, iv, 8, &n) == IK_OK && n == 0);
    memset(sol, 0x5a, sizeof sol);
    memset(iv, 0x5a, sizeof iv);
    keep = sol[0], keep_iv = iv[0], n = -1;
    CHECK(ik_closed_form_solve_swivel(&cf, ik_xform_identity(), (ik_real)NAN, NULL, NULL, sol, 8,
                                      &info) == IK_ERR_BAD_ARG);
    CHECK(ik_closed_form_swivel_intervals(NULL, far, iv, 8, &n) == IK_ERR_NULL_ARG);
    CHECK(ik_closed_form_swivel_intervals(&cf, far, iv, 0, &n) == IK_ERR_BAD_ARG);
    CHECK(ik_closed_form_swivel_intervals(&cf, far, NULL, 8, &n) == IK_ERR_NULL_ARG);
    CHECK(memcmp(&keep, &sol[0], sizeof keep) == 0 &&
          memcmp(&keep_iv, &iv[0], sizeof keep_iv) == 0);
    CHECK(n == -1);
    q[2] = (ik_real)INFINITY;
    CHECK(ik_closed_form_swivel(&cf, q, &sw) == IK_ERR_BAD_ARG && sw == 5);
    CHECK(ik_closed_form_solve(&cf, far, q, NULL, sol, 8, &info) == IK_ERR_BAD_ARG);
    CHECK(ik_closed_form_swivel(NULL, q, &sw) == IK_ERR_NULL_ARG);
    // a 6R arm's closed form has no swivel
    CHECK(arm_build(ARM_UR5, &def) == IK_OK);
    CHECK(ik_chain_closed_form(&def.chain, &six, NULL) == IK_CLOSED_FORM_THREE_PARALLEL);
    q[2] = 0;
    CHECK(ik_closed_form_swivel(&six, q, &sw) == IK_ERR_BAD_ARG && sw == 5);
    CHECK(ik_closed_form_swivel_intervals(&six, far, iv, 8, &n) == IK_ERR_BAD_ARG && n == -1);
    // a changed closed form whose joint count does not match its kind
    cf.joint_count = 6;
    CHECK(ik_closed_form_solve_swivel(&cf, far, 0, NULL, NULL, sol, 8, &info) == IK_ERR_BAD_ARG);
}

void test_srs(void)
{
    RUN(test_srs_random_arms);
    RUN(test_srs_intervals);
    RUN(test_srs_iiwa);
    RUN(test_srs_singular);
    RUN(test_srs_bad_input);
}
