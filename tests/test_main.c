/* The test program: the only translation unit with IK_IMPLEMENTATION. Every other test file
   includes ik.h as a plain header, so building this program is also a link test. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
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
void test_chain(void);
void test_svd(void);
void test_limb(void);
void test_ccd(void);
void test_jacobian(void);
void test_arm(void);
void test_robust(void);

// Internal: the solvers' kinematics pass reads the chain from a joint table (rotated origins
// as matrices; chains of z hinges by the planar pass); ik_chain_fk() and ik_chain_jacobian()
// read the joints as they go. On random chains of both kinds and every orientation weight the
// two give the same effector and Jacobian: the same operations, so on x86-64 to the last bit
// (up to the signs of zeros); where a compiler contracts products into FMAs, to rounding.
static void test_joint_table_passes(void)
{
    static ik_real base[16 * 12], jac1[6 * 40], jac2[6 * 40];
    static const ik_real ows[3] = { 0, 1, (ik_real)0.7 };
    test_rng r = { 97 };
    ik_joint joints[12];
    ik_real q[40];
    int trial, i, k, w, dof, planar = 0, identical = 0;
    for (trial = 0; trial < 400; trial++) {
        const bool flat = trial % 2 == 0; // z hinges (some -z), fixed joints, unrotated origins
        int n = 1 + (int)(test_rng_next(&r) % 12);
        ik_chain c;
        ik__joint_table t;
        for (i = 0; i < n; i++) {
            int kind = (int)(test_rng_next(&r) % 4);
            ik_quat rot = test_rng_quat(&r);
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
        for (w = 0; w < 3; w++) {
            ik_xform e1 = ik__jacobian(&c, &t, q, 6, dof, jac1, false, ows[w], NULL, NULL);
            ik_xform e2 = ik__jacobian(&c, NULL, q, 6, dof, jac2, false, ows[w], NULL, NULL);
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
                ik__jacobian(&c, &t, q, 6, dof, jac1, false, ows[w], NULL, &r1);
                ik__jacobian(&c, NULL, q, 6, dof, jac2, false, ows[w], NULL, &r2);
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
#if !defined(__FP_FAST_FMA) && (defined(__x86_64__) || defined(_M_X64))
    CHECK(identical == 1200); // (the same operations: without contraction into FMAs, bitwise)
#endif
}

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

int main(void)
{
    printf("ik.h %s, ik_real = %s\n", IK_VERSION_STRING, IK_REAL_FMT);
    CHECK(ik_real_size() == (int)sizeof(ik_real));
    test_math();
    RUN(test_joint_table_passes);
    RUN(test_rotation_log);
    test_chain();
    test_svd();
    test_limb();
    test_ccd();
    test_jacobian();
    test_arm();
    test_robust();
    printf("%d passed, %d failed\n", ik_test_passed, ik_test_failed);
    return ik_test_failed == 0 ? 0 : 1;
}
