/* The test program: the only translation unit with IK_IMPLEMENTATION. Every other test file
   includes ik.h as a plain header, so building this program is also a link test.
   Usage: ik_test [--trap-fe] [GROUP...]   GROUP: main math chain svd limb ccd jacobian arm robust
   limits skeleton fabrik
   (default: all). --trap-fe traps FE_INVALID, FE_DIVBYZERO and FE_OVERFLOW (glibc's
   feenableexcept): valid input must never raise them in ik.h, and bad input is checked on the
   bits, so the groups that pass bad input to ik.h run trapped too; a trap is a failure of the
   test it happened in, with the offset of the instruction in the program (addr2line -f -e
   PROGRAM OFFSET names the function), and the run goes on with the next test. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 // (feenableexcept, sigsetjmp)
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <fenv.h>
#if defined(__GLIBC__) && defined(__linux__)
#include <execinfo.h>
#include <fenv.h>
#include <setjmp.h>
#include <signal.h>
#define TEST_TRAPS (FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW)
#endif
// internal invariants are checked in every test run
#define IK_ASSERT(c)                                                                               \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            printf("IK_ASSERT failed: %s (%s:%d)\n", #c, __FILE__, __LINE__);                      \
            abort();                                                                               \
        }                                                                                          \
    } while (0)
#define IK_IMPLEMENTATION
#include "test.h"

int ik_test_passed = 0, ik_test_failed = 0;

void test_math(void);
void test_limits(void);
void test_skeleton(void);
void test_chain(void);
void test_svd(void);
void test_limb(void);
void test_ccd(void);
void test_jacobian(void);
void test_arm(void);
void test_robust(void);
void test_fabrik(void);
void test_closed(void);
void test_srs(void);

// Internal: ik__atan01(), the limb's elbow angle, against the C library's atan on 10^6 + 1 points
// of [0, 1] (and each reduction point and its neighbours): relative error within 2 epsilon
// (measured 1.6 ulp), in float and double.
static void test_atan01(void)
{
    int i, k, bad = 0;
    double worst = 0;
    for (i = 0; i <= 1000000 + 16 * 3; i++) {
        ik_real z;
        double want, err;
        if (i <= 1000000) {
            z = (ik_real)((double)i / 1000000);
        } else {
            k = (i - 1000001) / 3;
            z = (ik_real)k / 16;
            z = (i - 1000001) % 3 == 0
                    ? z
                    : ((i - 1000001) % 3 == 1 ? z * (1 + IK_EPSILON) : z * (1 - IK_EPSILON / 2));
            z = z > 1 ? 1 : z;
        }
#ifdef IK_USE_FLOAT
        want = atan((double)z);
#else
        want = (double)atanl((long double)z);
#endif
        err = fabs((double)ik__atan01(z) - want);
        worst = err / ((double)IK_EPSILON * want + 1e-300) > worst
                    ? err / ((double)IK_EPSILON * want + 1e-300)
                    : worst;
        bad += !(err <= 2 * (double)IK_EPSILON * want);
    }
    CHECK(bad == 0);
    CHECK(ik__atan01(0) == 0);
    printf("  atan01: worst relative error %.2f epsilon\n", worst);
}

// Internal: the ball limits' quick test. On random limits and rotations of angles up to 1.2
// times the larger of the bounds it uses (the twist's nearer end, the cone's smaller half-angle),
// a rotation it calls surely within, as a quaternion or an exponential map, is within the exact
// test (no slack); with the fast paths it calls at least a tenth of them within.
static void test_limit_quick(void)
{
    test_rng r = { 77 };
    int i, k, sure = 0, wrong = 0;
    for (i = 0; i < 200000; i++) {
        ik_ball_limit l;
        ik_real lo = (ik_real)test_rng_uniform(&r, -3.1, i % 5 ? 0 : 0.5), v[3];
        ik_real hi = (ik_real)test_rng_uniform(&r, (double)(lo > 0 ? lo : 0), 3.1);
        ik_real sx = (ik_real)test_rng_uniform(&r, 0, 3.14),
                sy = (ik_real)test_rng_uniform(&r, 0, 3.14);
        ik_real reach = -lo > hi ? -lo : hi, angle;
        ik_vec3 axis = ik_vec3_normalize(test_rng_vec3(&r, -1, 1));
        ik_quat q;
        ik__swing_twist st;
        bool within, quat_sure, map_sure;
        ik_ball_limit_make(test_rng_vec3(&r, -1, 1), test_rng_vec3(&r, -1, 1), sx, sy, lo, hi, &l);
        if (i % 7 == 3) // (twist[] edited after making: the tests read twist_half[], as it was)
            l.twist[0] = -3, l.twist[1] = 3;
        reach = reach > (sx > sy ? sx : sy) ? reach : (sx > sy ? sx : sy);
        angle = (ik_real)test_rng_uniform(&r, 0, 1.2) * reach;
        for (k = 0; k < 3; k++)
            v[k] = (k == 0 ? axis.x : k == 1 ? axis.y : axis.z) * angle;
        q = ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2]));
        st = ik__limit_split(&l, q);
        within = ik__cone_contains(&l, &st, 0) && ik__twist_contains(&l, &st, 0);
        quat_sure = ik__quat_surely_within(&l, q);
        map_sure = ik__expmap_surely_within(&l, v);
        sure += quat_sure + map_sure;
        wrong += (quat_sure || map_sure) && !within;
    }
    CHECK(wrong == 0);
    CHECK(!IK__FAST || sure >= 400000 / 10);
    printf("  quick limit test: %d of 400000 surely within\n", sure);
}

// Internal: ik__angle_near(theta, ref) is theta + 2 pi k, k whole, within half a turn of ref
// (to rounding), for gaps a few ulps either side of pi, 1.2 pi, 2.9 pi and random ones; and
// theta itself within half a turn.
static void test_angle_near(void)
{
    static const double gaps[] = { 0, 1, -1, 3.14159, -3.14159, 3.7699, -3.7699, 9.1106, -9.1106 };
    test_rng r = { 33 };
    int i, j, bad = 0;
    for (i = 0; i < 2000; i++) {
        ik_real theta = (ik_real)test_rng_uniform(&r, -10, 10);
        for (j = 0; j < 9 + 8; j++) {
            ik_real gap = j < 9 ? (ik_real)gaps[j]
                                : IK_PI * (j & 1 ? 1 : -1) * (1 + (ik_real)(j - 12) * IK_EPSILON);
            ik_real ref = theta + gap, got = ik__angle_near(theta, ref);
            double turns = ((double)got - (double)theta) / (2 * 3.14159265358979323846);
            double tol = 64 * (double)IK_EPSILON * (fabs((double)theta) + fabs((double)ref) + 7);
            bad += !(fabs(turns - floor(turns + 0.5)) <= tol) ||
                   !(fabs((double)got - (double)ref) <= 3.14159265358979323846 + tol) ||
                   (IK_FABS(ref - theta) < IK_PI && got != theta);
        }
    }
    CHECK(bad == 0);
}

// Internal: the solvers' kinematics pass reads the chain from a joint table (rotated origins
// as matrices, those about a coordinate axis as a turn of two columns; chains of z hinges by the
// planar pass); ik_chain_fk() and ik_chain_jacobian() read the joints as they go. On random
// chains of both kinds (origins rotated at random or, a third of them, about x, y or z, a
// quarter turn among them, as DH origins are) and every orientation weight the two give the
// same effector and Jacobian: the same operations, so on x86-64 to the last bit (up to the signs
// of zeros); where a compiler contracts products into FMAs, to rounding.
#ifndef IK_NO_FAST_PATHS
static void test_joint_table_passes(void)
{
    static ik_real base[16 * 12], jac1[6 * 40], jac2[6 * 40];
    static const ik_real ows[3] = { 0, 1, (ik_real)0.7 };
    test_rng r = { 97 };
    ik_joint joints[12];
    ik_real q[40];
    int trial, i, k, w, dof, planar = 0, identical = 0, about[12], marked = 0, about_axis = 0,
                             joints_rotated = 0;
    for (trial = 0; trial < 400; trial++) {
        const bool flat = trial % 2 == 0; // z hinges (some -z), fixed joints, unrotated origins
        int n = 1 + (int)(test_rng_next(&r) % 12);
        ik_chain c;
        ik__joint_table t;
        for (i = 0; i < n; i++) {
            int kind = (int)(test_rng_next(&r) % 4), ax = (int)(test_rng_next(&r) % 9);
            ik_quat rot = test_rng_quat(&r);
            about[i] = 3;
            if (ax < 3) { // about e_ax, by a random angle or a quarter turn
                double h = test_rng_next(&r) % 2 ? 0.7853981633974483 : test_rng_uniform(&r, -2, 2);
                rot = ik_quat_make(ax == 0 ? (ik_real)sin(h) : 0, ax == 1 ? (ik_real)sin(h) : 0,
                                   ax == 2 ? (ik_real)sin(h) : 0, (ik_real)cos(h));
                about[i] = ax;
            }
            ik_xform o = ik_xform_make(flat ? ik_quat_identity() : rot, test_rng_vec3(&r, -1, 1));
            ik_vec3 axis = kind == 1 ? ik_vec3_make(0, 0, -1) : ik_vec3_make(0, 0, 1);
            if (!flat && kind == 1)
                axis = ik_vec3_normalize(test_rng_vec3(&r, -1, 1));
            joints[i] = kind == 3 && flat    ? ik_joint_fixed(o)
                        : kind == 3          ? ik_joint_ball(o)
                        : kind == 2 && !flat ? ik_joint_prismatic(o, ik_vec3_make(0, 1, 0))
                                             : ik_joint_revolute(o, axis);
        }
        c = ik_chain_make(joints, n, ik_xform_make(test_rng_quat(&r), test_rng_vec3(&r, -1, 1)));
        dof = ik_chain_dof(&c);
        for (k = 0; k < dof; k++)
            q[k] = (ik_real)test_rng_uniform(&r, -4, 4);
        t = ik__joint_table_make(&c, base);
        planar += t.planar;
        CHECK(t.planar == flat);
        for (i = 0; i < n && !flat; i++) { // (an origin about e_k: marked so)
            marked += t.code[i] / IK__CODE_ORIGIN == about[i];
            about_axis += about[i] < 3;
            joints_rotated++;
        }
        for (w = 0; w < 3; w++) {
            ik_xform e1 = ik__jacobian(&c, &t, q, 6, dof, jac1, false, ows[w], NULL, NULL, NULL);
            ik_xform e2 = ik__jacobian(&c, NULL, q, 6, dof, jac2, false, ows[w], NULL, NULL, NULL);
            double worst =
                fmax(fabs((double)ik_vec3_length(ik_vec3_sub(e1.pos, e2.pos))),
                     fabs((double)(e1.rot.x - e2.rot.x)) + fabs((double)(e1.rot.y - e2.rot.y)) +
                         fabs((double)(e1.rot.z - e2.rot.z)) + fabs((double)(e1.rot.w - e2.rot.w)));
            for (k = 0; k < 6 * dof; k++)
                worst = fmax(worst, fabs((double)jac1[k] - (double)jac2[k]));
            identical += worst == 0;
            CHECK_NEAR(worst, 0, TOL(1e-12, 1e-4));
            if (ows[w] > 0) { // out_rot: the last frame R, the effector's rotation R T
                ik_mat3 r1, r2, want = ik_quat_to_mat3(e1.rot), got;
                ik__jacobian(&c, &t, q, 6, dof, jac1, false, ows[w], NULL, &r1, NULL);
                ik__jacobian(&c, NULL, q, 6, dof, jac2, false, ows[w], NULL, &r2, NULL);
                got = ik_mat3_mul(r1, ik_quat_to_mat3(c.tip.rot));
                worst = 0;
                for (i = 0; i < 9; i++)
                    worst = fmax(worst, fabs((double)(&r1.m[0][0])[i] - (double)(&r2.m[0][0])[i]));
                CHECK_NEAR(worst, 0, TOL(1e-12, 1e-4));
                worst = 0;
                for (i = 0; i < 9; i++)
                    worst =
                        fmax(worst, fabs((double)(&got.m[0][0])[i] - (double)(&want.m[0][0])[i]));
                CHECK_NEAR(worst, 0, TOL(1e-12, 1e-4));
            }
        }
    }
    CHECK(planar == 200);
    CHECK(about_axis > 300);
    CHECK(marked == joints_rotated); // (the others marked 3: a general rotation)
#if !defined(__FP_FAST_FMA) && (defined(__x86_64__) || defined(_M_X64)) && !TEST_FAST_MATH
    // (the same operations: without contraction into FMAs, or -ffast-math's regrouping, bitwise)
    CHECK(identical == 1200);
#else
    (void)identical;
#endif
}
#endif

// Internal: the Jacobian iterations' rotation error log(G R^T) from the matrices
// (ik__rotation_log) against the exponential map of the quaternion G R^T (ik__quat_log) on
// random rotations, at angles near 0 (the series), near 120 degrees (where it hands over to the
// quaternion), near and at pi, and the identity: to a few ulps of pi, the vector's length the
// angle in [0, pi].
static void test_rotation_log(void)
{
    static const double angles[] = { 0,
                                     1e-9,
                                     1e-7,
                                     9e-7,
                                     1.1e-6,
                                     1e-3,
                                     0.5,
                                     2.0943951023931953,
                                     2.0943951023931957,
                                     2.1,
                                     3.0,
                                     3.14159,
                                     3.141592653589793 };
    test_rng r = { 2026 };
    double worst = 0, worst_len = 0;
    int trial;
    for (trial = 0; trial < 2000; trial++) {
        ik_quat qr = test_rng_quat(&r), qd = test_rng_quat(&r), qg;
        ik_mat3 g, rm = ik_quat_to_mat3(qr);
        ik_vec3 axis = ik_vec3_normalize(test_rng_vec3(&r, -1, 1)), got, want;
        double angle = trial < 1000 ? angles[trial % 13] : 2 * acos(fabs((double)qd.w));
        if (trial >= 1000)
            axis = ik_vec3_normalize(ik_vec3_make(qd.x, qd.y, qd.z));
        qg = ik_quat_mul(ik_quat_from_axis_angle(axis, (ik_real)angle), qr);
        g = ik_quat_to_mat3(qg);
        got = ik__rotation_log(&g, &rm);
        want = ik__quat_log(ik_quat_mul(qg, ik_quat_conjugate(qr)));
        if (angle > 3.14159) { // (at pi either direction of the axis)
            if (ik_vec3_dot(got, want) < 0)
                want = ik_vec3_scale(want, -1);
        }
        worst = fmax(worst, (double)ik_vec3_length(ik_vec3_sub(got, want)));
        worst_len = fmax(worst_len, fabs((double)ik_vec3_length(got) - angle));
        CHECK(ik_vec3_is_finite(got));
    }
    CHECK_NEAR(worst, 0, TOL(1e-14, 2e-6));
    CHECK_NEAR(worst_len, 0, TOL(1e-14, 2e-6));
}

// Internal: the normal equations A y = e (A = J J^T = U diag(s^2) U^T, m = 3, 6, 9 or 4) by ik__ldlt /
// ik__ldlt_solve, and ik__ldlt_inverse_trace, against long double references, with a random
// orthonormal U and two small singular values s (cond(A) up to 4.9e10 in double, 4.9e4 in
// float; the solver's conditioning cut, 1 / tr(A^-1) > 1e4 epsilon tr(A), lets through at most
// 4.5e11 and 840): the errors stay within
// 8 cond(A) epsilon (a backward-stable solve; an explicit inverse by cofactors, tried in 0.7.1,
// lost cond(A)^2 epsilon here: 1.4e8 in these units), and 1 / tr(A^-1) bounds the smallest
// eigenvalue s_min^2 from below, within a factor m.
static void test_normal_equations(void)
{
    test_rng r = { 4242 };
    double worst_y = 0, worst_t = 0;
    int trial, i, j, k, bound_ok = 0, total = 0;
    for (trial = 0; trial < 800; trial++) {
        static const int sizes[4] = { 3, 6, 9, 4 }; // (the fast paths' sizes, and others)
        const int m = sizes[trial % 4];
        const double top = TOL(9.0, 3.0) / 2, lk = top * (double)(trial % 10) / 9; // cond(J)
        double u[9][9] = { { 0 } }, s[9] = { 0 }, cond, smin2; // (zeroed: gcc's flow analysis)
        long double yref[9], tref = 0;
        ik_real a[81], l[81], y[9] = { 0 }, e[9] = { 0 }, ti;
        for (j = 0; j < m; j++) { // Gram-Schmidt on random columns
            double nu = 0;
            for (i = 0; i < m; i++)
                u[i][j] = test_rng_uniform(&r, -1, 1);
            for (k = 0; k < j; k++) {
                double du = 0;
                for (i = 0; i < m; i++)
                    du += u[i][j] * u[i][k];
                for (i = 0; i < m; i++)
                    u[i][j] -= du * u[i][k];
            }
            for (i = 0; i < m; i++)
                nu += u[i][j] * u[i][j];
            for (i = 0; i < m; i++)
                u[i][j] /= sqrt(nu);
            s[j] = j == m - 1   ? 0.1 * pow(10, -lk)
                   : j == m - 2 ? 0.3 * pow(10, -lk)
                                : 0.4 + 0.6 * (double)j / m;
        }
        smin2 = s[m - 1] * s[m - 1];
        cond = (m == 3 ? 0.16 : s[m - 3] * s[m - 3]) / smin2; // (the largest s, or s[0] = 0.4)
        for (i = 0; i < m; i++) {
            e[i] = (ik_real)test_rng_uniform(&r, -1, 1);
            for (j = 0; j < m; j++) { // A = U diag(s^2) U^T, rounded to ik_real
                double t = 0;
                for (k = 0; k < m; k++)
                    t += u[i][k] * s[k] * s[k] * u[j][k];
                a[i * m + j] = (ik_real)t;
            }
        }
        CHECK(ik__ldlt(a, 0, m, l));
        for (i = 0; i < m; i++)
            y[i] = e[i];
        ik__ldlt_solve(l, m, y);
        ti = ik__ldlt_inverse_trace(l, m, m);
        // references: Gauss-Jordan in long double on the same (rounded) A, for e and for the
        // unit vectors (the inverse's diagonal)
        for (k = 0; k <= m; k++) {
            long double aa[9][10], x;
            int c, rr;
            for (i = 0; i < m; i++) {
                for (j = 0; j < m; j++)
                    aa[i][j] = (long double)a[i * m + j];
                aa[i][m] = k == m ? (long double)e[i] : (long double)(i == k);
            }
            for (c = 0; c < m; c++)
                for (rr = 0; rr < m; rr++)
                    if (rr != c) {
                        x = aa[rr][c] / aa[c][c];
                        for (j = c; j <= m; j++)
                            aa[rr][j] -= x * aa[c][j];
                    }
            if (k == m)
                for (i = 0; i < m; i++)
                    yref[i] = aa[i][m] / aa[i][i];
            else
                tref += aa[k][m] / aa[k][k];
        }
        {
            long double dn = 0, nn = 0;
            double ey, et;
            for (i = 0; i < m; i++) {
                dn += ((long double)y[i] - yref[i]) * ((long double)y[i] - yref[i]);
                nn += yref[i] * yref[i];
            }
            ey = (double)sqrtl(dn / nn) / (cond * (double)IK_EPSILON);
            et = fabs((double)(((long double)ti - tref) / tref)) / (cond * (double)IK_EPSILON);
            worst_y = fmax(worst_y, ey);
            worst_t = fmax(worst_t, et);
        }
        total++;
        bound_ok += 1 / (double)ti <= smin2 * (1 + 64 * cond * (double)IK_EPSILON) &&
                    1 / (double)ti >= smin2 / m * (1 - 64 * cond * (double)IK_EPSILON);
    }
    CHECK(worst_y <= 8); // in units of cond(A) epsilon (0.4 seen in double and float)
    CHECK(worst_t <= 8);
    CHECK(bound_ok == total);
}

// Internal: the normal matrix J diag(w) J^T and J^T y for 1 to 12 task rows (the fast paths' 3
// and 6, the general code's blocks of 3 and its rows otherwise), weighted and not, against sums
// in long double: each entry within 16 epsilon of the sum of its terms' magnitudes, the matrix
// symmetric to the bit.
static void test_normal_rows(void)
{
    enum { DOF = 7 };
    test_rng r = { 77 };
    int trial, i, j, c;
    for (trial = 0; trial < 48; trial++) {
        const int m = 1 + (trial / 2) % 12;
        const bool weighted = trial % 2 != 0;
        ik_real jac[12 * DOF], wa[DOF], a[144], y[12], out[DOF];
        for (i = 0; i < m * DOF; i++)
            jac[i] = (ik_real)test_rng_uniform(&r, -2, 2);
        for (c = 0; c < DOF; c++)
            wa[c] = (ik_real)test_rng_uniform(&r, 0, 1);
        for (i = 0; i < m; i++)
            y[i] = (ik_real)test_rng_uniform(&r, -1, 1);
        ik__normal_matrix(jac, weighted ? wa : NULL, m, DOF, a);
        ik__jacobian_tmul(jac, y, m, DOF, out);
        for (i = 0; i < m; i++)
            for (j = 0; j < m; j++) {
                long double sum = 0, mag = 0;
                for (c = 0; c < DOF; c++) {
                    long double t = (long double)jac[i * DOF + c] *
                                    (long double)(weighted ? wa[c] : 1) *
                                    (long double)jac[j * DOF + c];
                    sum += t;
                    mag += fabsl(t);
                }
                CHECK(fabsl((long double)a[i * m + j] - sum) <= 16 * (long double)IK_EPSILON * mag);
                CHECK(a[i * m + j] == a[j * m + i]);
            }
        for (c = 0; c < DOF; c++) {
            long double sum = 0, mag = 0;
            for (i = 0; i < m; i++) {
                long double t = (long double)jac[i * DOF + c] * (long double)y[i];
                sum += t;
                mag += fabsl(t);
            }
            CHECK(fabsl((long double)out[c] - sum) <= 16 * (long double)IK_EPSILON * mag);
        }
    }
}

// Internal: the Jacobian solver's active set from one iteration to the next, on a 3 x 3 task
// (J = I, so that J_c^T r is r's component c). ik__pins_carry() keeps a pin whose joint is still
// on its limit (within a few roundings, also with the other limit infinite), frees the others,
// and counts a waiting pin down; ik__pins_release() frees a carried pin (2) that the residual
// r = e - J dq pulls inward by more than rounding (where r is at rounding: the step's dual y),
// and none that it pulls outward, none whose limits are equal, none pinned in this iteration
// (1, or again: 2 + IK__PIN_WAIT), a waiting one (above 2) only where the step is not clamped.
static void pins_work(ik__jac_work *w, ik_real *jac, ik_real *arrays)
{
    int i;
    memset(w, 0, sizeof *w);
    for (i = 0; i < 9; i++)
        jac[i] = i % 4 == 0 ? 1 : 0;
    w->jac = jac;
    w->q = arrays, w->dq = arrays + 3, w->pinned = arrays + 6, w->forced = arrays + 9;
    w->lo = arrays + 12, w->hi = arrays + 15, w->y = arrays + 18, w->rv = arrays + 21;
    for (i = 0; i < 24; i++)
        arrays[i] = 0;
    for (i = 0; i < 3; i++)
        w->lo[i] = -1, w->hi[i] = 1;
}

static void test_pins_active_set(void)
{
    ik__jac_work w;
    ik_real jac[9], a[24], e[3] = { 0, 0, 0 };
    int c;
    // carry: on the limit (exactly; 2 roundings off, the forced move onto it; the upper limit
    // with the lower one infinite) stays; off it by 1e-4 is freed; a waiting pin counts down
    pins_work(&w, jac, a);
    w.lo[2] = -IK_INFINITY;
    w.q[0] = -1, w.q[1] = 1 - 2 * IK_EPSILON, w.q[2] = 1;
    w.pinned[0] = 1, w.pinned[1] = 2, w.pinned[2] = 5, w.pins = 3;
    ik__pins_carry(&w, 3);
    CHECK(w.pinned[0] == 2 && w.pinned[1] == 2 && w.pinned[2] == 4 && w.pins == 3);
    CHECK(w.forced[0] == 0 && w.forced[1] == 1 - w.q[1] && w.forced[2] == 0);
    w.q[0] = IK_R(-0.9999), w.q[2] = IK_R(0.5);
    ik__pins_carry(&w, 3);
    CHECK(w.pinned[0] == 0 && w.pinned[1] == 2 && w.pinned[2] == 0 && w.pins == 1);
    CHECK(w.forced[0] == 0 && w.forced[2] == 0);
    // release: joints 0 and 1 carried on their lower limits, joint 2 free and solving its row;
    // the residual pulls joint 1 outward (-) and joint 0 inward (+; case 1 outward, 2 with
    // equal limits, 3 by less than rounding; 4 pinned in this iteration; waiting: 5 with the
    // step clamped to max_step, 6 not clamped, 7 pinned again in this iteration; 8, 9: the
    // residual at rounding, the step's dual y pulling inward, outward)
    for (c = 0; c < 10; c++) {
        const bool inward = c != 1 && c != 9, equal = c == 2, rounding = c == 3 || c >= 8;
        const int mark = c == 4 ? 1 : (c == 5 || c == 6 ? 3 : (c == 7 ? 2 + IK__PIN_WAIT : 2));
        const bool freed = inward && !equal && (!rounding || c == 8) && c != 4 && c != 5 && c != 7;
        pins_work(&w, jac, a);
        w.q[0] = w.q[1] = -1;
        w.hi[0] = equal ? -1 : 1;
        w.lo[0] = equal ? -1 : w.lo[0];
        w.pinned[0] = (ik_real)mark, w.pinned[1] = 2, w.pins = 2;
        e[0] = rounding ? IK_R(1e-3) * IK_SQRT(IK_EPSILON) : (inward ? IK_R(0.5) : IK_R(-0.5));
        e[1] = IK_R(-0.5), e[2] = IK_R(0.25);
        w.dq[2] = IK_R(0.25); // (r = e - J dq: 0 on row 2)
        w.has_y = c >= 8;
        w.y[0] = c == 8 ? 1 : -1, w.y[1] = w.y[2] = IK_R(0.5);
        CHECK(ik__pins_release(&w, 3, 3, e, c == 5 ? IK_R(0.1) : 1) == freed);
        CHECK(w.pinned[1] == 2 && w.pinned[0] == (freed ? 0 : mark));
        CHECK(w.pins == 2 - (w.pinned[0] == 0) && w.released == (w.pinned[0] == 0));
    }
    // on the upper limit the signs turn: a residual pulling down frees it
    pins_work(&w, jac, a);
    w.q[0] = 1, w.pinned[0] = 2, w.pins = 1;
    e[0] = IK_R(-0.5), e[1] = e[2] = 0;
    CHECK(ik__pins_release(&w, 3, 3, e, 1) && w.pinned[0] == 0 && w.pins == 0);
}

// Internal: the SVD's sweeps on matrices with zero, tiny (squares below the smallest normal
// number), repeated and linearly dependent columns or rows, and on rank-deficient products: as
// many sweeps as dense random matrices of the same shape take (rank deficiency
// leaves a column of rounding errors that no rotation can make orthogonal: it must be set to
// zero, not rotated until the sweep limit), no FE_INVALID, FE_DIVBYZERO or FE_OVERFLOW raised,
// and U S V^T = A to rounding with orthonormal U and V.
static double svd_residual(const ik_real *a, const ik_real *u, const ik_real *s, const ik_real *v,
                           int m, int n, double *ortho)
{
    const int k = m < n ? m : n;
    double res = 0, norm = 0;
    int r, c, i;
    *ortho = 0;
    for (r = 0; r < m; r++)
        for (c = 0; c < n; c++) {
            double sum = 0;
            for (i = 0; i < k; i++)
                sum += (double)u[r * k + i] * (double)s[i] * (double)v[c * k + i];
            res += (sum - (double)a[r * n + c]) * (sum - (double)a[r * n + c]);
            norm += (double)a[r * n + c] * (double)a[r * n + c];
        }
    for (i = 0; i < k; i++)
        for (c = 0; c < k; c++) {
            double du = 0, dv = 0;
            for (r = 0; r < m; r++)
                du += (double)u[r * k + i] * (double)u[r * k + c];
            for (r = 0; r < n; r++)
                dv += (double)v[r * k + i] * (double)v[r * k + c];
            *ortho = fmax(*ortho, fmax(fabs(du - (i == c)), fabs(dv - (i == c))));
        }
    return norm > 0 ? sqrt(res / norm) : sqrt(res);
}

static void test_svd_sweeps(void)
{
    static const int shapes[][2] = { { 6, 6 }, { 6, 7 }, { 3, 7 }, { 6, 3 }, { 7, 6 }, { 6, 20 } };
    const double tiny = sizeof(ik_real) < 8 ? 1e-30 : 1e-300;
    ik_real a[120], u[120], s[6], v[120];
    test_rng rng;
    size_t sh;
    rng.s = 99;
    for (sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        const int m = shapes[sh][0], n = shapes[sh][1], k = m < n ? m : n;
        int kind, trial, most[6] = { 0 }, total[6] = { 0 };
        for (kind = 0; kind < 6; kind++)
            for (trial = 0; trial < 60; trial++) {
                // 0 dense; 1 a zero column; 2 a tiny one; 3 a repeated one; 4 rank k - 1 and
                // 5 rank k - 2 products (m x r)(r x n); a zero row in every other case of 1-3
                const int zc = (int)(test_rng_next(&rng) % (unsigned)n), rank = k - kind + 3;
                int i, r, c, sweeps;
                double ortho, res;
                for (i = 0; i < m * n; i++)
                    a[i] = (ik_real)test_rng_uniform(&rng, -1, 1);
                if (kind >= 4 && rank >= 1) {
                    double b[120], d[120];
                    for (i = 0; i < m * rank; i++)
                        b[i] = test_rng_uniform(&rng, -1, 1);
                    for (i = 0; i < rank * n; i++)
                        d[i] = test_rng_uniform(&rng, -1, 1);
                    for (r = 0; r < m; r++)
                        for (c = 0; c < n; c++) {
                            double sum = 0;
                            for (i = 0; i < rank; i++)
                                sum += b[r * rank + i] * d[i * n + c];
                            a[r * n + c] = (ik_real)sum;
                        }
                }
                for (r = 0; r < m && kind >= 1 && kind <= 3; r++)
                    a[r * n + zc] = kind == 1   ? 0
                                    : kind == 2 ? (ik_real)(tiny * test_rng_uniform(&rng, -1, 1))
                                                : a[r * n + (zc + 1) % n];
                for (c = 0; c < n && kind >= 1 && kind <= 3 && trial % 2; c++)
                    a[((zc + 2) % m) * n + c] = 0;
                feclearexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
                sweeps = ik__svd(a, m, n, u, s, v);
                CHECK(!fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW) || !IK_TEST_FP_FLAGS);
                res = svd_residual(a, u, s, v, m, n, &ortho);
                // (as test_svd.c asks of every matrix: 4500 ulps in double, 84 in float)
                CHECK(res <= TOL(1e-12, 1e-5) && ortho <= TOL(1e-13, 1e-5));
                if (!(res <= TOL(1e-12, 1e-5) && ortho <= TOL(1e-13, 1e-5)))
                    printf("  %d x %d, kind %d: residual %.3g, orthonormality %.3g\n", m, n, kind,
                           res, ortho);
                for (i = 1; i < k; i++)
                    CHECK(s[i] <= s[i - 1] && s[i] >= 0);
                most[kind] = sweeps > most[kind] ? sweeps : most[kind];
                total[kind] += sweeps;
            }
        // as many as dense matrices take: on average, and at most one more than their most
        // (dense ones too take one sweep more now and then: 0.5% of them 7 for 6 x 6)
        for (kind = 1; kind < 6; kind++)
            CHECK(total[kind] <= total[0] + 15 && most[kind] <= most[0] + 1);
        if (sh == 0)
            printf("  SVD sweeps of 60 matrices 6 x 6, mean (most): dense %.2f (%d), zero column "
                   "%.2f (%d), tiny %.2f (%d), repeated %.2f (%d), rank 5 %.2f (%d), rank 4 %.2f "
                   "(%d)\n",
                   total[0] / 60.0, most[0], total[1] / 60.0, most[1], total[2] / 60.0, most[2],
                   total[3] / 60.0, most[3], total[4] / 60.0, most[4], total[5] / 60.0, most[5]);
    }
}

// A ball's bounds at v within band, none kept (ik__ball_bounds_kept()).
static ik__ball_bounds test_ball_bounds_at(const ik_ball_limit *limit, const ik_real *v,
                                           ik_real band)
{
    ik__ball_bounds b;
    ik__ball_bounds_kept(&b, limit, v, band, NULL);
    return b;
}

// Whether bound t of a and bound k of b are the same: to the bit (-ffast-math: within rounding,
// as it may round the branches that a band takes apart).
static bool test_bounds_same(const ik__ball_bounds *a, int t, const ik__ball_bounds *b, int k)
{
    if (!TEST_FAST_MATH)
        return a->dist[t] == b->dist[k] &&
               memcmp(&a->normal[t], &b->normal[k], sizeof(ik_vec3)) == 0;
    return fabs((double)(a->dist[t] - b->dist[k])) <= TOL(1e-12, 1e-5) &&
           test_vec3_dist(a->normal[t], b->normal[k]) <= TOL(1e-12, 1e-5);
}

// Internal: a ball far inside by its angle alone (ik__ball_surely_far(), band 0.1) gets no bound
// from the cone's or the twist's test, on random limits and rotations of angles up to 1.2 times
// the larger of the bounds; with the fast paths it passes at least a tenth of them.
static void test_ball_far(void)
{
    test_rng r = { 78 };
    int i, far = 0, wrong = 0;
    for (i = 0; i < 200000; i++) {
        ik_ball_limit l;
        ik_real lo = (ik_real)test_rng_uniform(&r, -3.1, i % 5 ? 0 : 0.5);
        ik_real hi = (ik_real)test_rng_uniform(&r, (double)(lo > 0 ? lo : 0), 3.1);
        ik_real sx = (ik_real)test_rng_uniform(&r, 0, 3.14),
                sy = (ik_real)test_rng_uniform(&r, 0, 3.14);
        ik_real reach = -lo > hi ? -lo : hi;
        ik_vec3 axis = ik_vec3_normalize(test_rng_vec3(&r, -1, 1));
        ik__ball_bounds b;
        ik_quat q, qa;
        const ik_mat3 *a = &l.axes;
        if (i % 7 == 0)
            lo = -IK_PI, hi = IK_PI;
        ik_ball_limit_make(test_rng_vec3(&r, -1, 1), test_rng_vec3(&r, -1, 1), sx, sy, lo, hi, &l);
        reach = reach > (sx > sy ? sx : sy) ? reach : (sx > sy ? sx : sy);
        reach = reach < IK_R(3.1) ? reach : IK_R(3.1);
        b.v = ik_vec3_scale(axis, (ik_real)test_rng_uniform(&r, 0, 1.2) * reach);
        b.count = 0, b.kept = NULL, b.have_jexp = false;
        q = ik_quat_from_expmap(b.v);
        if (!ik__ball_surely_far(&l, q, IK_R(0.1)))
            continue;
        far++;
        qa = ik_quat_make(a->m[0][0] * q.x + a->m[1][0] * q.y + a->m[2][0] * q.z,
                          a->m[0][1] * q.x + a->m[1][1] * q.y + a->m[2][1] * q.z,
                          a->m[0][2] * q.x + a->m[1][2] * q.y + a->m[2][2] * q.z, q.w);
        qa = qa.w < 0 ? ik__quat_scale(qa, -1) : qa;
        ik__ball_cone_bound(&b, &l, qa, IK_R(0.1));
        ik__ball_twist_bound(&b, &l, qa, IK_R(0.1));
        wrong += b.count > 0;
    }
    CHECK(wrong == 0);
    CHECK(!IK__FAST || far >= 200000 / 10);
    printf("  balls far inside by their angle: %d of 200000\n", far);
}

// The Jacobian solvers' ball-joint bounds (test_ball_bounds_at()): at states on a limit's
// boundary, the distance to a bound falls by h along its normal and stays to second order along
// the tangents (central differences; a sample where a step changes which bounds there are is
// skipped, and counted).
static double test_bound_slope(const ik_ball_limit *limit, const ik_real *v, ik_vec3 d, double h,
                               int k, int count)
{
    ik_real at[2][3];
    ik__ball_bounds b[2];
    int i, t;
    for (i = 0; i < 2; i++) {
        for (t = 0; t < 3; t++)
            at[i][t] =
                v[t] + (ik_real)((i ? -h : h) * (double)(t == 0 ? d.x : (t == 1 ? d.y : d.z)));
        b[i] = test_ball_bounds_at(limit, at[i], 100);
    }
    if (b[0].count != count || b[1].count != count)
        return (double)NAN;
    return ((double)b[0].dist[k] - (double)b[1].dist[k]) / (2 * h);
}

// Two priorities with a joint pinned on its limit: priority 0's rows of the step J1 dq equal their
// error e1 (undamped PINV): the pinned joint's forced move, taken out of e already, is not taken
// out again by the null-space projection (it was: J1 dq = (0.0208, 0.0268, -0.01) for e1 =
// (0.02, 0.03, -0.01)).
static void test_priority_pinned(void)
{
    static unsigned char scratch[1 << 16];
    ik_joint j[5];
    int parents[5] = { -1, 0, 1, 2, 1 }, c, i;
    ik_real q[5] = { IK_R(0.1), IK_R(0.2), IK_R(0.3), IK_R(0.4), IK_R(0.5) }, e1[64], worst = 0;
    ik_skeleton s;
    ik_effector e[2];
    ik_xform frames[5];
    ik_vec3 t0, t1;
    ik__jac_work w;
    ik_jacobian_opts o = ik_default_jacobian_opts();
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 1, 0));
    j[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 0, 1));
    j[3] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 1, 0));
    j[4] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 1, 0)), ik_vec3_make(0, 0, 1));
    j[0].lo = IK_R(0.09), j[0].hi = IK_R(0.101); // (the step crosses it: pinned)
    s = ik_skeleton_make(j, parents, 5);
    ik_skeleton_fk(&s, q, frames);
    t0 = ik_xform_apply(frames[3], ik_vec3_make(IK_R(0.5), 0, 0));
    t1 = ik_xform_apply(frames[4], ik_vec3_make(IK_R(0.5), 0, 0));
    e[0] = ik_effector_make(3, ik_xform_translation(ik_vec3_make(IK_R(0.5), 0, 0)),
                            IK_EFFECTOR_POSITION,
                            ik_vec3_add(t0, ik_vec3_make(IK_R(0.02), IK_R(0.03), IK_R(-0.01))));
    e[1] = ik_effector_make(4, ik_xform_translation(ik_vec3_make(IK_R(0.5), 0, 0)),
                            IK_EFFECTOR_POSITION,
                            ik_vec3_add(t1, ik_vec3_make(IK_R(0.02), IK_R(-0.01), IK_R(0.02))));
    e[1].priority = 1;
    o.method = IK_JACOBIAN_PINV;
    o.max_step = o.max_joint_step = 10;
    CHECK(ik__skeleton_setup(&w, &s, e, 2, &o, q, scratch, sizeof scratch, NULL, NULL) == IK_OK);
    ik__clamp_error(&w, o.max_step, w.e);
    for (i = 0; i < w.m; i++)
        e1[i] = w.e[i];
    CHECK(ik__active_set_step(&w, w.e));
    CHECK(w.pins == 1 && w.first_rows == 3);
    for (i = 0; i < w.first_rows; i++) {
        ik_real row = 0;
        for (c = 0; c < w.dof; c++)
            row += w.jac[i * w.dof + c] * w.dq[c];
        worst = fabs((double)(row - e1[i])) > (double)worst ? (ik_real)fabs((double)(row - e1[i]))
                                                            : worst;
    }
    CHECK_NEAR(worst, 0, TOL(1e-9, 1e-4));
}

// A random tree for the chord test: a trunk of n - 4 joints (the first a ball, the others of any
// type), and two branches of two balls, from its joints n - 7 and n - 6.
static void chord_tree(test_rng *rng, int n, ik_joint *j, int *parents)
{
    int i;
    for (i = 0; i < n; i++) {
        const int kind = i == 0 || i >= n - 4 ? 0 : (int)(test_rng_next(rng) % 3);
        ik_xform at = ik_xform_translation(test_rng_vec3(rng, -0.5, 0.5));
        ik_vec3 axis = ik_vec3_normalize(test_rng_vec3(rng, -1, 1));
        j[i] = kind == 0   ? ik_joint_ball(at)
               : kind == 1 ? ik_joint_prismatic(at, axis)
                           : ik_joint_revolute(at, axis);
        parents[i] = i - 1;
    }
    parents[n - 4] = n - 7, parents[n - 2] = n - 6;
}

// A chord test's problem: chord_tree()'s tree of 8 to 12 joints (the branches' balls limited where
// `limited`), a random state q, and three effectors 0.05 off it: the trunk's pose at priority 0,
// the branches' positions at priority 1 (0 with one_priority).
typedef struct chord_case {
    ik_joint j[12];
    ik_ball_limit limits[12];
    int parents[12], n;
    ik_real q[40];
    ik_effector eff[3];
    ik_skeleton s;
} chord_case;

static void chord_case_make(test_rng *rng, bool limited, bool one_priority, chord_case *t)
{
    ik_xform frames[12];
    int k, c;
    t->n = 8 + (int)(test_rng_next(rng) % 5);
    chord_tree(rng, t->n, t->j, t->parents);
    for (k = t->n - 4; k < t->n && limited; k++) { // (on their cones, many of them)
        CHECK(ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_R(0.3), IK_R(0.4),
                                 IK_R(-0.5), IK_R(0.5), &t->limits[k]) == IK_OK);
        t->j[k].limit = &t->limits[k];
    }
    t->s = ik_skeleton_make(t->j, t->parents, t->n);
    for (c = 0; c < ik_skeleton_dof(&t->s); c++)
        t->q[c] = (ik_real)test_rng_uniform(rng, -0.5, 0.5);
    ik_skeleton_fk(&t->s, t->q, frames);
    for (k = 0; k < 3; k++) {
        const int at = k == 0 ? t->n - 5 : (k == 1 ? t->n - 3 : t->n - 1);
        t->eff[k] = ik_effector_make(at, ik_xform_identity(),
                                     k == 0 ? IK_EFFECTOR_POSE : IK_EFFECTOR_POSITION,
                                     ik_vec3_add(frames[at].pos, test_rng_vec3(rng, -0.05, 0.05)));
        t->eff[k].target_rot = ik_quat_slerp(frames[at].rot, test_rng_quat(rng), IK_R(0.05));
        t->eff[k].priority = one_priority ? 0 : k > 0;
    }
}

// The forced moves f of the pinned columns in joint coordinates: M^-1 f for a ball in its frame;
// the balls in frames.
static int chord_forced(const ik__jac_work *w, ik_real *f)
{
    int c = 0, jt, k, framed = 0;
    for (jt = 0; jt < w->chain->joint_count; jt++) {
        const ik_joint *j = &w->chain->joints[jt];
        if (j->type == IK_JOINT_BALL && j->limit && w->hi[c + 2] < IK_INFINITY) {
            const ik_real *m = w->frame + 6 * c, z[3] = { f[c], f[c + 1], f[c + 2] };
            for (k = 0; k < 3; k++)
                f[c + k] = m[3 * k] * z[0] + m[3 * k + 1] * z[1] + m[3 * k + 2] * z[2];
            framed++;
        }
        c += ik_joint_type_dof(j->type);
    }
    return framed;
}

// A chord step (docs/skeletons.md, "Chord steps") at the full step's own state and error is that
// step but for its pinned joints' forced moves (PINV: no damping; no rest pose), on random trees
// with one or two priorities of more than 6 rows, limited balls in frames, pinned joints.
static void test_chord_step(void)
{
    static unsigned char scratch[1 << 17];
    test_rng rng = { 4711 };
    double worst = 0;
    int trial, c, checked = 0, framed = 0, pinned = 0;
    for (trial = 0; trial < 300; trial++) {
        static chord_case t;
        ik_real full[40], forced[40];
        ik__jac_work w;
        ik_jacobian_opts o = ik_default_jacobian_opts();
        chord_case_make(&rng, trial % 2, trial % 3 == 2, &t); // (a third with one priority)
        o.method = IK_JACOBIAN_PINV;
        o.max_step = o.max_joint_step = IK_R(1e6); // (no step scaled down)
        CHECK(ik__skeleton_setup(&w, &t.s, t.eff, 3, &o, t.q, scratch, sizeof scratch, NULL,
                                 NULL) == IK_OK);
        ik__clamp_error(&w, o.max_step, w.e);
        CHECK(ik__active_set_step(&w, w.e)); // (e: less the pinned joints' forced moves' part)
        if (!ik__chord_ready(&w) || w.released > 0) // (a factor the chord does not take)
            continue;
        pinned += w.pins > 0;
        for (c = 0; c < w.dof; c++)
            full[c] = w.dq[c];
        for (c = 0; c < w.dof; c++) // (the forced moves, each in its column's coordinates)
            forced[c] = w.pinned[c] != 0 ? w.forced[c] : 0;
        CHECK(ik__chord_step(&w, w.e));
        framed += chord_forced(&w, forced) > 0;
        for (c = 0; c < w.dof; c++)
            worst = fmax(worst, fabs((double)(w.dq[c] + forced[c] - full[c])) /
                                    (1 + fabs((double)full[c])));
        checked++;
    }
    printf(
        "  chord steps at the full step's state: %d of 300 trees (%d with ball frames, %d pins), "
        "worst difference %.3g\n",
        checked, framed, pinned, worst);
    // (float: more steps by the SVD, fewer chord steps to compare)
    CHECK(checked >= TOL(200, 80) && framed >= TOL(80, 30) && pinned >= TOL(60, 20));
    CHECK_NEAR(worst, 0, TOL(1e-9, 1e-3));
}

// After a full step of two priorities with a rest pose and DLS's damping, the factors a chord
// step takes still factor their matrices: A1 (proj's) and priority 1's damped normal matrix.
static void test_chord_factors_kept(void)
{
    static unsigned char scratch[1 << 17];
    test_rng rng = { 1213 };
    double worst = 0;
    int trial, k, c, r, checked = 0;
    for (trial = 0; trial < 100; trial++) {
        static chord_case t;
        ik_real rest[40], x[40], b[40];
        ik__jac_work w;
        ik_jacobian_opts o = ik_default_jacobian_opts();
        chord_case_make(&rng, false, false, &t);
        for (c = 0; c < ik_skeleton_dof(&t.s); c++)
            rest[c] = (ik_real)test_rng_uniform(&rng, -0.5, 0.5);
        o.damping = IK_R(0.05); // (both priorities' steps damped)
        o.rest = rest;
        o.max_step = o.max_joint_step = IK_R(1e6);
        CHECK(ik__skeleton_setup(&w, &t.s, t.eff, 3, &o, t.q, scratch, sizeof scratch, NULL,
                                 NULL) == IK_OK);
        ik__clamp_error(&w, o.max_step, w.e);
        CHECK(ik__active_set_step(&w, w.e));
        if (!ik__chord_ready(&w) || w.pins > 0 || w.released > 0)
            continue;
        for (k = 0; k < 2; k++) { // (A1 x = b, then (B + d^2 I) x = b, solved by the factors)
            const int n2 = k == 0 ? w.first_rows : w.m - w.first_rows, stride = k == 0 ? w.m : n2;
            const ik_real *a = k == 0 ? w.proj : w.normal;
            for (r = 0; r < n2; r++)
                x[r] = (ik_real)test_rng_uniform(&rng, -1, 1);
            for (r = 0; r < n2; r++) {
                b[r] = k == 0 ? 0 : o.damping * o.damping * x[r];
                for (c = 0; c < n2; c++)
                    b[r] += a[r * stride + c] * x[c];
            }
            ik__ldlt_solve(k == 0 ? w.proj + w.rows * w.rows : w.chord_factor, n2, b);
            for (r = 0; r < n2; r++)
                worst = fmax(worst, fabs((double)(b[r] - x[r])));
        }
        checked++;
    }
    printf("  chord steps' factors after a damped step with a rest pose: %d of 100 trees, worst "
           "%.3g\n",
           checked, worst);
    CHECK(checked >= TOL(70, 40));
    CHECK_NEAR(worst, 0, TOL(1e-8, 1e-2));
}

static void test_ball_bounds(void)
{
    test_rng rng = { 5150 };
    // (float: dist's rounding, about 1e-6, asks for steps of 1e-2, where the boundary's
    // curvature puts slopes up to 0.15 off for cones narrower than 0.6 rad (0.011 above),
    // which only double checks; a wrong gradient is 1 and more off)
    const double h = TOL(1e-5, 1e-2), tol = TOL(1e-6, 0.03), narrowest = TOL(0.2, 0.6);
    double worst_n = 0, worst_t = 0;
    int i, k, checked = 0, skipped = 0;
    for (i = 0; i < 4000; i++) {
        ik_ball_limit limit;
        ik_vec3 v;
        ik_real q[3];
        ik__ball_bounds b;
        ik_ball_limit_make(test_rng_vec3(&rng, -1, 1), test_rng_vec3(&rng, -1, 1),
                           (ik_real)test_rng_uniform(&rng, narrowest, 2.5),
                           (ik_real)test_rng_uniform(&rng, narrowest, 2.5),
                           (ik_real)test_rng_uniform(&rng, -2, 0),
                           (ik_real)test_rng_uniform(&rng, 0, 2), &limit);
        v = ik_quat_to_expmap(ik_ball_limit_project(&limit, test_rng_quat(&rng)));
        q[0] = v.x, q[1] = v.y, q[2] = v.z;
        b = test_ball_bounds_at(&limit, q, 100);
        for (k = 0; k < b.count; k++) {
            ik_vec3 n = b.normal[k], t1, t2;
            double sn, s1, s2;
            if (!(fabs((double)b.dist[k]) < TOL(1e-12, 1e-5)))
                continue; // (only a bound the state is on: there dist is the distance)
            t1 = ik_vec3_normalize(ik_vec3_cross(n, ik_vec3_make(n.z, n.x, -n.y)));
            t2 = ik_vec3_cross(n, t1);
            sn = test_bound_slope(&limit, q, n, h, k, b.count);
            s1 = test_bound_slope(&limit, q, t1, h, k, b.count);
            s2 = test_bound_slope(&limit, q, t2, h, k, b.count);
            if (isnan(sn) || isnan(s1) || isnan(s2)) {
                skipped++;
                continue;
            }
            worst_n = fmax(worst_n, fabs(sn + 1));
            worst_t = fmax(worst_t, fmax(fabs(s1), fabs(s2)));
            checked++;
        }
    }
    printf("  ball bounds on 4000 limits' boundaries: %d checked (%d skipped), d dist / d normal "
           "within %.2g of -1, along tangents within %.2g of 0\n",
           checked, skipped, worst_n, worst_t);
    CHECK(checked > 3000 && skipped * 20 < checked);
    CHECK(worst_n <= tol && worst_t <= tol);
}

// Internal: the kinematics pass's and the step's short forms against the library's: atan2(s, c) /
// s by its series (ik__atan2_per_sin, below 7 degrees) and a step's rotation by the series of
// sine and cosine (ik__expmap_step, below 0.2 rad) within 4 epsilon of the exact value; a ball's
// rotation with its exp-map Jacobian from one sine and cosine (ik__expmap_rotation, their series
// up to pi): the rotation and the Jacobian ik_quat_from_expmap()'s and ik_expmap_jacobian()'s to
// rounding (small, large, huge and unbounded maps).
static void test_kinematics_short_forms(void)
{
    test_rng rng = { 4242 };
    double worst_atan = 0, worst_step = 0, worst_jac = 0, worst_rot = 0;
    int i, r, c;
    for (i = 0; i < 200000; i++) {
        double angle = test_rng_uniform(&rng, 0, 0.124) * (i % 3 == 0 ? 1e-4 : 1);
        ik_real s = (ik_real)sin(angle), k = (ik_real)test_rng_uniform(&rng, 0.5, 2);
        ik_real cs = (ik_real)cos(angle) * k, sn = s * k; // (a scale: the function is in ratios)
        long double want = sn > 0 ? atan2l((long double)sn, (long double)cs) / (long double)sn
                                  : 1 / (long double)cs;
        ik_vec3 v = ik_vec3_scale(ik_vec3_normalize(test_rng_vec3(&rng, -1, 1)),
                                  (ik_real)test_rng_uniform(&rng, 0, 0.25));
        ik_quat got = ik__expmap_step(v), ref = ik_quat_from_expmap(v);
        double d = fmax(fmax(fabs((double)(got.x - ref.x)), fabs((double)(got.y - ref.y))),
                        fmax(fabs((double)(got.z - ref.z)), fabs((double)(got.w - ref.w))));
        worst_step = fmax(worst_step, d / (double)IK_EPSILON);
        if (sn < cs / 8)
            worst_atan = fmax(
                worst_atan, (double)(fabsl((long double)ik__atan2_per_sin(sn, cs) - want) / want) /
                                (double)IK_EPSILON);
    }
    for (i = 0; i < 20000; i++) {
        static const double sizes[] = { 0, 1e-9, 5e-3, 0.3, 1, 3.14159, 6, 40, 1e300 };
        ik_real size = (ik_real)(sizes[i % 9] < 1e30 ? sizes[i % 9] : 1e30 * (i % 2 ? 1e8 : 1));
        ik_vec3 v = ik_vec3_scale(ik_vec3_normalize(test_rng_vec3(&rng, -1, 1)), size);
        ik_mat3 j, want = ik_expmap_jacobian(v);
        ik_quat rot = ik__expmap_rotation(v, &j), ref = ik_quat_from_expmap(v);
        worst_rot = fmax(worst_rot,
                         fmax(fmax(fabs((double)(rot.x - ref.x)), fabs((double)(rot.y - ref.y))),
                              fmax(fabs((double)(rot.z - ref.z)), fabs((double)(rot.w - ref.w)))) /
                             (double)IK_EPSILON);
        for (r = 0; r < 3; r++)
            for (c = 0; c < 3; c++)
                worst_jac = fmax(worst_jac, fabs((double)(j.m[r][c] - want.m[r][c])));
    }
    printf("  short forms: atan2(s, c) / s within %.2f epsilon, a step's rotation within %.2f, a "
           "ball's within %.2f, the map's Jacobian within %.2g\n",
           worst_atan, worst_step, worst_rot, worst_jac);
    CHECK(worst_atan <= 4 && worst_step <= 4 && worst_rot <= 4);
    CHECK_NEAR(worst_jac, 0, TOL(4e-15, 2e-6));
}

// Internal: the ball-limit frames' bounds within the band (0.1) include those of a band of 100
// whose distance is below 0.1 (a distance in the map's values is at least the one the band
// measures: the map's Jacobian has no singular value above 1), whatever the quick tests for a cone
// or a twist far off pass by: on random limits, at states on, near and inside them.
static void test_ball_bounds_band(void)
{
    test_rng rng = { 6160 };
    int i, k, t, within = 0, missing = 0, extra = 0, cone = 0;
    for (i = 0; i < 20000; i++) {
        ik_ball_limit limit;
        ik_vec3 v;
        ik_real q[3], f = (ik_real)(i % 3 == 0 ? 1 : test_rng_uniform(&rng, 0.8, 1.05));
        ik__ball_bounds near, wide;
        ik_ball_limit_make(
            test_rng_vec3(&rng, -1, 1), test_rng_vec3(&rng, -1, 1),
            (ik_real)test_rng_uniform(&rng, 0.2, 2.5), (ik_real)test_rng_uniform(&rng, 0.2, 2.5),
            (ik_real)test_rng_uniform(&rng, -2, 0), (ik_real)test_rng_uniform(&rng, 0, 2), &limit);
        v = ik_vec3_scale(ik_quat_to_expmap(ik_ball_limit_project(&limit, test_rng_quat(&rng))), f);
        q[0] = v.x, q[1] = v.y, q[2] = v.z;
        near = test_ball_bounds_at(&limit, q, IK_R(0.1));
        wide = test_ball_bounds_at(&limit, q, 100);
        for (k = 0; k < wide.count; k++) {
            bool found = false;
            for (t = 0; t < near.count; t++)
                found = found || test_bounds_same(&near, t, &wide, k);
            within += wide.dist[k] < IK_R(0.0999);
            missing += wide.dist[k] < IK_R(0.0999) && !found;
        }
        for (t = 0; t < near.count; t++) {
            bool found = false;
            for (k = 0; k < wide.count; k++)
                found = found || test_bounds_same(&near, t, &wide, k);
            extra += !found;
        }
    }
    for (i = 0; i < 20000; i++) { // (a cone alone: its bound at band 100 where f > 1/2)
        ik_ball_limit limit;
        ik_quat r;
        ik_vec3 v, bone;
        ik_real q[3], f, c2, g, a, b;
        ik__ball_bounds wide;
        ik_ball_limit_make(test_rng_vec3(&rng, -1, 1), test_rng_vec3(&rng, -1, 1),
                           (ik_real)test_rng_uniform(&rng, 0.2, 2.5),
                           (ik_real)test_rng_uniform(&rng, 0.2, 2.5), -IK_PI, IK_PI, &limit);
        r = ik_ball_limit_project(&limit, test_rng_quat(&rng));
        v = ik_vec3_scale(ik_quat_to_expmap(r), (ik_real)test_rng_uniform(&rng, 0.3, 1.05));
        q[0] = v.x, q[1] = v.y, q[2] = v.z;
        wide = test_ball_bounds_at(&limit, q, 100);
        r = ik_quat_from_expmap(v); // (the bone b = q z in the limit's axes)
        v = ik_mat3_mul_vec3(ik_mat3_transpose(limit.axes), ik_vec3_make(r.x, r.y, r.z));
        r = ik_quat_make(v.x, v.y, v.z, r.w);
        bone = ik_quat_rotate(r, ik_vec3_make(0, 0, 1));
        c2 = IK_SQRT((1 + bone.z) / 2);
        g = 1 / (2 * c2 * (1 + c2));
        a = limit.cone[0], b = limit.cone[1];
        f = IK_SQRT((bone.y * g / a) * (bone.y * g / a) + (bone.x * g / b) * (bone.x * g / b));
        if (c2 < IK_R(0.06) || fabs((double)f - 0.5) < 1e-9)
            continue; // (the bone near reversed: no bound; f at 1/2 to rounding)
        cone += f > IK_R(0.5);
        extra += wide.count != (f > IK_R(0.5));
    }
    printf("  ball bounds within the band: %d of 20000 states' bounds nearer than 0.1, %d missing, "
           "%d wrong (%d cones' with f > 1/2)\n",
           within, missing, extra, cone);
    CHECK(within > 5000 && missing == 0 && extra == 0 && cone > 5000);
}

static void test_main_internals(void)
{
    RUN(test_ball_bounds_band);
    RUN(test_kinematics_short_forms);
    RUN(test_ball_bounds);
    RUN(test_priority_pinned);
    RUN(test_chord_step);
    RUN(test_chord_factors_kept);
    RUN(test_limit_quick);
    RUN(test_ball_far);
    RUN(test_atan01);
    RUN(test_angle_near);
#ifndef IK_NO_FAST_PATHS // (the joint tables' turns and planar pass: fast paths)
    RUN(test_joint_table_passes);
#endif
    RUN(test_rotation_log);
    RUN(test_normal_equations);
    RUN(test_normal_rows);
    RUN(test_svd_sweeps);
    RUN(test_pins_active_set);
}

#ifdef TEST_TRAPS
static int trap_fe = 0;
static sigjmp_buf trap_jump;
static void *trap_frames[16];
static int trap_frame_count, trap_code;
extern char __executable_start, etext; // (GNU ld, gold, lld: the program's code)

static void trap_handler(int sig, siginfo_t *si, void *context)
{
    (void)sig, (void)context;
    trap_frames[0] = si->si_addr;
    trap_code = si->si_code;
    trap_frame_count = 1 + backtrace(trap_frames + 1, 15);
    siglongjmp(trap_jump, 1);
}

// The trapping instruction's offset in the program, or (in a library such as libm) its
// caller's: the first frame in the program's code after the handler's own.
static unsigned long trap_offset(void)
{
    int i;
    for (i = 0; i < trap_frame_count; i++) {
        char *p = (char *)trap_frames[i];
        if (p >= &__executable_start && p < &etext && (i == 0 || i > 2))
            return (unsigned long)(p - &__executable_start - (i > 0)); // (a return address - 1)
    }
    return 0;
}

static void trap_start(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = trap_handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGFPE, &sa, NULL);
    trap_frame_count = backtrace(trap_frames, 1); // (loads the unwinder outside the handler)
    feclearexcept(FE_ALL_EXCEPT);
    feenableexcept(TEST_TRAPS);
}
#endif

void ik_test_run(void (*fn)(void), const char *name)
{
#ifdef TEST_TRAPS
    if (trap_fe && sigsetjmp(trap_jump, 1)) {
        ik_test_failed++;
        printf("FAIL %s: floating-point exception trapped (%s) at offset 0x%lx\n", name,
               trap_code == FPE_FLTINV   ? "invalid"
               : trap_code == FPE_FLTOVF ? "overflow"
               : trap_code == FPE_FLTDIV ? "divide by zero"
                                         : "other",
               trap_offset());
        trap_start(); // (the handler ran with the exceptions masked)
        return;
    }
#endif
    (void)name;
    fn();
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } groups[] = { { "math", test_math },         { "main", test_main_internals },
                   { "chain", test_chain },       { "svd", test_svd },
                   { "limb", test_limb },         { "ccd", test_ccd },
                   { "jacobian", test_jacobian }, { "arm", test_arm },
                   { "robust", test_robust },     { "limits", test_limits },
                   { "skeleton", test_skeleton }, { "fabrik", test_fabrik },
                   { "closed", test_closed },     { "srs", test_srs } };
    const int count = (int)(sizeof groups / sizeof groups[0]);
    int g, i, chosen = 0;
    printf("ik.h %s, ik_real = %s\n", IK_VERSION_STRING, IK_REAL_FMT);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--trap-fe") == 0) {
#ifdef TEST_TRAPS
            trap_fe = 1;
            trap_start();
#else
            printf("--trap-fe: no feenableexcept here (glibc only): not trapped\n");
#endif
            continue;
        }
        for (g = 0; g < count && strcmp(argv[i], groups[g].name) != 0; g++)
            ;
        if (g == count) {
            printf("unknown test group %s\n", argv[i]);
            return 2;
        }
        chosen++;
    }
    CHECK(ik_real_size() == (int)sizeof(ik_real));
    for (g = 0; g < count; g++) {
        for (i = 1; i < argc && strcmp(argv[i], groups[g].name) != 0; i++)
            ;
        if (chosen == 0 || i < argc)
            groups[g].fn();
    }
    printf("%d passed, %d failed\n", ik_test_passed, ik_test_failed);
    return ik_test_failed == 0 ? 0 : 1;
}
