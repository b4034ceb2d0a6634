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
            ik_xform e1 = ik__jacobian(&c, &t, q, 6, dof, jac1, false, ows[w], NULL);
            ik_xform e2 = ik__jacobian(&c, NULL, q, 6, dof, jac2, false, ows[w], NULL);
            double worst =
                fmax(fabs((double)ik_vec3_length(ik_vec3_sub(e1.pos, e2.pos))),
                     fabs((double)(e1.rot.x - e2.rot.x)) + fabs((double)(e1.rot.y - e2.rot.y)) +
                         fabs((double)(e1.rot.z - e2.rot.z)) + fabs((double)(e1.rot.w - e2.rot.w)));
            for (k = 0; k < 6 * dof; k++)
                worst = fmax(worst, fabs((double)jac1[k] - (double)jac2[k]));
            identical += worst == 0;
            CHECK_NEAR(worst, 0, TOL(1e-12, 1e-4));
        }
    }
    CHECK(planar == 200);
#if !defined(__FP_FAST_FMA) && (defined(__x86_64__) || defined(_M_X64))
    CHECK(identical == 1200); // (the same operations: without contraction into FMAs, bitwise)
#endif
}

int main(void)
{
    printf("ik.h %s, ik_real = %s\n", IK_VERSION_STRING, IK_REAL_FMT);
    CHECK(ik_real_size() == (int)sizeof(ik_real));
    test_math();
    RUN(test_joint_table_passes);
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
