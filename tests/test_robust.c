/* Robustness: every public function against the bad inputs it can get (docs/robustness.md names
   the test behind each row), regression tests for what the fuzzers found, precision at scales
   from 1e-3 to 1e3, and a shortened long-run tracking check (tests/stability.c runs the long
   one). Outputs are pre-filled with a byte pattern to see that a failing call wrote nothing. */
#include "test.h"
#include <float.h>
#include <string.h>

#define FILL 0xA5
#define PI_D 3.14159265358979323846

static unsigned char scratch[1 << 16];

// The address `bytes` into scratch from its first 16-byte-aligned byte: room for any of ik.h's
// types there (bytes a multiple of their alignment).
static unsigned char *scratch_at(size_t bytes)
{
    return scratch + (16 - (size_t)((uintptr_t)scratch % 16)) % 16 + bytes;
}

static int untouched(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (b[i] != FILL)
            return 0;
    return 1;
}

static int finite_d(double x)
{
    return test_finite(x);
}

static int reals_finite(const ik_real *x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!finite_d((double)x[i]))
            return 0;
    return 1;
}

static int quat_unit(ik_quat q)
{
    return ik_quat_is_unit(q, IK_R(1e-5));
}

static int mat3_finite(ik_mat3 m)
{
    return reals_finite(&m.m[0][0], 9);
}

// The bad reals of the table: NaN, +-Inf, beyond IK_MAX_MAGNITUDE.
static ik_real bad_real(int k)
{
    switch (k) {
    case 0: return (ik_real)nan("");
    case 1: return IK_INFINITY;
    case 2: return -IK_INFINITY;
    default: return IK_MAX_MAGNITUDE * 2;
    }
}
#define BAD_REALS 4

// Extreme but valid reals: zero, -0, denormal, smallest normal, tiny, IK_MAX_MAGNITUDE.
static ik_real extreme_real(int k)
{
    switch (k) {
    case 0: return 0;
    case 1: return -IK_R(0.0);
    case 2: return IK__REAL_MIN / 8; // a denormal
    case 3: return IK__REAL_MIN;
    case 4: return IK_R(1e-30);
    default: return IK_MAX_MAGNITUDE;
    }
}
#define EXTREME_REALS 6

// ---- status strings ----------------------------------------------------------------------------

static void test_robust_strings(void)
{
    int k;
    for (k = -8; k <= 8; k++) {
        CHECK(ik_result_string((ik_result)k) != NULL);
        CHECK(ik_status_string((ik_status)k) != NULL);
    }
}

// ---- conversions: total functions --------------------------------------------------------------

// Every conversion with non-finite, huge, denormal and zero input: finite output, unit where a
// rotation comes out, the identity (or zero) for non-finite input.
static void test_robust_conversions(void)
{
    int k, c, order;
    ik_real vals[BAD_REALS + EXTREME_REALS + 2];
    int nv = 0;
    for (k = 0; k < BAD_REALS; k++)
        vals[nv++] = bad_real(k);
    for (k = 0; k < EXTREME_REALS; k++)
        vals[nv++] = extreme_real(k);
    vals[nv++] = IK__REAL_MAX;
    vals[nv++] = -IK__REAL_MAX / 3;
    for (k = 0; k < nv; k++)
        for (c = 0; c < 4; c++) {
            // the value in one component (c < 3) or all of them (c = 3)
            ik_real x = vals[k];
            ik_vec3 v = c == 3 ? ik_vec3_make(x, x, x)
                               : ik_vec3_make(c == 0 ? x : IK_R(0.3), c == 1 ? x : IK_R(0.2),
                                              c == 2 ? x : IK_R(-0.1));
            ik_quat q = ik_quat_make(v.x, v.y, v.z, c == 3 ? x : IK_R(0.5));
            int fin = ik_vec3_is_finite(v) && finite_d((double)q.w);
            ik_mat3 m = ik_quat_to_mat3(q), mr;
            ik_vec3 axis, e;
            ik_quat s1, s2;
            ik_real ang;
            for (int i = 0; i < 3; i++)
                m.m[i][c % 3] = x; // a matrix with the value in one column
            CHECK(ik_vec3_is_finite(ik_vec3_normalize(v)));
            CHECK(ik_vec3_is_finite(ik_vec3_any_perpendicular(v)));
            CHECK(quat_unit(ik_quat_normalize(q)));
            CHECK(quat_unit(ik_quat_from_axis_angle(v, x)));
            CHECK(quat_unit(ik_quat_from_axis_angle(v, IK_R(0.5))));
            ang = ik_quat_to_axis_angle(q, &axis);
            CHECK(finite_d((double)ang) && ang >= 0 && ang <= IK_PI && ik_vec3_is_finite(axis));
            CHECK(quat_unit(ik_quat_from_expmap(v)));
            CHECK(ik_vec3_length(ik_quat_to_expmap(q)) <= IK_PI * (1 + 4 * IK_EPSILON));
            CHECK(ik_vec3_length(ik_expmap_reparameterize(v)) <= IK_PI * (1 + 4 * IK_EPSILON));
            CHECK(mat3_finite(ik_expmap_jacobian(v)));
            CHECK(mat3_finite(ik_quat_to_mat3(q)));
            CHECK(quat_unit(ik_quat_from_mat3(m)));
            CHECK(quat_unit(ik_quat_from_two_vectors(v, ik_vec3_make(0, 1, 0))));
            CHECK(quat_unit(ik_quat_from_two_vectors(ik_vec3_make(0, 1, 0), v)));
            CHECK(quat_unit(ik_quat_slerp(q, ik_quat_identity(), IK_R(0.3))));
            CHECK(quat_unit(ik_quat_slerp(ik_quat_identity(), q, x)));
            ik_quat_swing_twist(q, v, &s1, &s2);
            CHECK(quat_unit(s1) && quat_unit(s2));
            for (order = 0; order < 7; order++) { // 6: not an order
                CHECK(mat3_finite(ik_mat3_from_euler(v, (ik_euler_order)order)));
                e = ik_mat3_to_euler(m, (ik_euler_order)order);
                CHECK(ik_vec3_is_finite(e));
            }
            mr = ik_mat3_interpolate_axis(m, ik_mat3_identity(), IK_R(0.5));
            CHECK(mat3_finite(mr));
            CHECK(mat3_finite(ik_mat3_interpolate_axis(ik_mat3_identity(), m, x)));
            CHECK(quat_unit(ik_xform_make(q, ik_vec3_zero()).rot));
            if (!fin) {
                // non-finite input: the identity or the zero vector
                ik_quat id = ik_quat_from_expmap(v);
                CHECK(id.x == 0 && id.y == 0 && id.z == 0 && id.w == 1);
                CHECK(ik_vec3_length2(ik_expmap_reparameterize(v)) == 0);
                CHECK(ik_vec3_length2(ik_vec3_normalize(v)) == 0);
                CHECK(test_mat3_dist(ik_quat_to_mat3(q), ik_mat3_identity()) == 0);
            }
        }
    // zero and non-unit quaternions and axes: documented answers
    {
        ik_quat z = ik_quat_make(0, 0, 0, 0), sw, tw;
        ik_vec3 axis;
        CHECK(ik_quat_normalize(z).w == 1);
        CHECK(ik_quat_to_axis_angle(z, &axis) == 0 && axis.x == 1);
        CHECK(ik_quat_from_axis_angle(ik_vec3_zero(), 1).w == 1);
        CHECK(test_quat_angle(ik_quat_from_two_vectors(ik_vec3_zero(), ik_vec3_make(1, 0, 0)),
                              ik_quat_identity()) == 0);
        ik_quat_swing_twist(ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), 1), ik_vec3_zero(), &sw,
                            &tw);
        CHECK(tw.w == 1 && test_quat_angle(sw, ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), 1)) <
                               TOL(1e-12, 1e-6));
        ik_quat_swing_twist(ik_quat_identity(), ik_vec3_make(0, 0, 1), NULL, NULL); // both NULL
        // a non-unit quaternion is normalized: 3q is the rotation q
        {
            ik_quat q = ik_quat_from_axis_angle(ik_vec3_make(1, 2, 3), IK_R(0.7));
            ik_quat q3 = ik_quat_make(3 * q.x, 3 * q.y, 3 * q.z, 3 * q.w);
            CHECK_NEAR(test_mat3_dist(ik_quat_to_mat3(q3), ik_quat_to_mat3(q)), 0,
                       TOL(1e-15, 1e-6));
            CHECK_NEAR(test_vec3_dist(ik_quat_to_expmap(q3), ik_quat_to_expmap(q)), 0,
                       TOL(1e-15, 1e-6));
        }
    }
}

// ---- regressions of fuzzer findings: conversions -----------------------------------------------

// ik_expmap_reparameterize cast a quotient above 2^63 to long long (undefined behaviour, found
// by the chain fuzzer) for |v| beyond about 5.8e19; it must reduce any finite v exactly.
static void test_robust_reparameterize_huge(void)
{
    static const double lens[] = { 7.5, 1e6 + 0.25, 1e7 * PI_D + 0.5, 1e20, 3e25, 1e30, 1e38 };
    size_t k;
    for (k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        ik_real a = (ik_real)lens[k];
        ik_vec3 n = ik_vec3_normalize(ik_vec3_make(2, -1, 2)), r;
        double want, two_pi = (double)(2 * IK_PI);
        if (!finite_d((double)a))
            continue;
        r = ik_expmap_reparameterize(ik_vec3_scale(n, a));
        CHECK(ik_vec3_is_finite(r) && ik_vec3_length(r) <= IK_PI * (1 + 4 * IK_EPSILON));
        // the angle a mod 2 pi (with the library's 2 pi), in (-pi, pi], along n; fmod is exact
        want = fmod((double)a, two_pi);
        if (want > (double)IK_PI)
            want -= two_pi;
        // v = a n and |v| carry a rounding error of a few ulp of a
        CHECK_NEAR((double)ik_vec3_dot(r, n), want, 8 * (double)IK_EPSILON * (lens[k] + 1));
    }
    {
        // |v| itself overflows
        ik_vec3 v = ik_vec3_make(IK__REAL_MAX, IK__REAL_MAX, -IK__REAL_MAX / 2);
        ik_vec3 r = ik_expmap_reparameterize(v);
        CHECK(ik_vec3_is_finite(r) && ik_vec3_length(r) <= IK_PI * (1 + 4 * IK_EPSILON));
        CHECK(quat_unit(ik_quat_from_expmap(v)));
    }
}

// ik_expmap_jacobian gave NaN when |v|^3 overflowed (|v| > 1e102 in double, 1e12 in float) and
// the identity instead of n n^T when only a^3 did: for huge |v| it tends to n n^T.
static void test_robust_expmap_jacobian_huge(void)
{
    ik_real big[3] = { IK_R(1e6), TOL(1e200, 1e30), IK__REAL_MAX };
    int k, r, c;
    for (k = 0; k < 3; k++) {
        ik_vec3 n = ik_vec3_make(IK_R(0.6), 0, IK_R(0.8));
        ik_mat3 j = ik_expmap_jacobian(ik_vec3_scale(n, big[k]));
        const ik_real nv[3] = { n.x, n.y, n.z };
        CHECK(mat3_finite(j));
        for (r = 0; r < 3; r++)
            for (c = 0; c < 3; c++)
                CHECK_NEAR(j.m[r][c], nv[r] * nv[c], TOL(2e-6, 2e-6));
    }
    {
        // and the formula still matches a finite difference of exp at ordinary size
        ik_vec3 v = ik_vec3_make(IK_R(0.9), IK_R(-1.4), IK_R(0.5)), dv = ik_vec3_make(0, 0, 1);
        ik_mat3 j = ik_expmap_jacobian(v);
        double h = TOL(1e-6, 1e-3);
        ik_quat q0 = ik_quat_from_expmap(v);
        ik_quat q1 = ik_quat_from_expmap(ik_vec3_add_scaled(v, dv, (ik_real)h));
        ik_vec3 w = ik_vec3_scale(ik_quat_to_expmap(ik_quat_mul(q1, ik_quat_conjugate(q0))),
                                  (ik_real)(1 / h));
        ik_vec3 jw = ik_mat3_mul_vec3(j, dv);
        CHECK_NEAR(test_vec3_dist(w, jw), 0, TOL(1e-5, 1e-2));
    }
}

// ik_quat_from_mat3 overflowed its sums into NaN for a (non-rotation) matrix of huge entries.
static void test_robust_quat_from_mat3_huge(void)
{
    ik_mat3 m = ik_quat_to_mat3(ik_quat_from_axis_angle(ik_vec3_make(1, 1, 0), 1));
    ik_quat a = ik_quat_from_mat3(m), b;
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++)
            m.m[r][c] *= IK__REAL_MAX / 2;
    b = ik_quat_from_mat3(m); // not a rotation: the formula's normalized result, finite
    CHECK(quat_unit(b) && b.w >= 0);
    CHECK(quat_unit(a));
}

// ---- chain model -------------------------------------------------------------------------------

static ik_chain arm3(ik_joint *j)
{
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_ball(ik_xform_translation(ik_vec3_make(1, 0, 0)));
    j[2] = ik_joint_prismatic(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(1, 0, 0));
    return ik_chain_make(j, 3, ik_xform_translation(ik_vec3_make(IK_R(0.5), 0, 0)));
}

// ik_chain_validate, ik_chain_dof, ik_chain_state_index: every documented rejection.
// Constructors check nothing and never fail: what they store is checked where it is used
// (ik_chain_validate(), the solvers' target checks). Predicates answer false for non-finite
// input; the options from the defaults functions are accepted by their solvers.
static void test_robust_constructors(void)
{
    ik_xform bx;
    ik_joint j[2];
    ik_chain c;
    ik_target t;
    int k;
    CHECK(ik_joint_type_dof((ik_joint_type)17) == 0 && ik_joint_type_dof((ik_joint_type)-1) == 0);
    for (k = 0; k < BAD_REALS; k++) {
        ik_vec3 v = ik_vec3_make(1, bad_real(k), 0);
        ik_quat q = ik_quat_make(0, 0, bad_real(k), 1);
        CHECK(!ik_vec3_is_finite(v) == (k < 3));
        CHECK(!ik_quat_is_unit(q, IK_R(1e-4)));
        // a joint or tip with a bad real: the chain is invalid
        j[0] = ik_joint_revolute(ik_xform_translation(v), ik_vec3_make(0, 0, 1));
        j[1] = ik_joint_ball(ik_xform_identity());
        c = ik_chain_make(j, 2, ik_xform_identity());
        CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG && ik_chain_dof(&c) == -1);
        // the axis is normalized: a NaN or infinite one stays bad, a huge one is fine
        j[0] = ik_joint_prismatic(ik_xform_identity(), v);
        CHECK((ik_chain_validate(&c) == IK_ERR_BAD_ARG) == (k < 3));
        // (ik_xform_make() normalizes: a non-finite rotation becomes the identity)
        CHECK(ik_quat_is_unit(ik_xform_make(q, ik_vec3_zero()).rot, IK_R(1e-6)));
        bx = ik_xform_identity();
        bx.rot = q;
        c = ik_chain_make(j + 1, 1, bx);
        CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG);
        CHECK(ik_ccd_scratch_size(&c) == 0 && ik_jacobian_scratch_size(&c) == 0 &&
              ik_arm_scratch_size(&c) == 0);
        t = ik_target_position(v); // stored as is; the solvers refuse it
        CHECK(!ik_vec3_is_finite(t.pos) == (k < 3) && !t.use_rotation);
        t = ik_target_pose(bx);
        CHECK(t.use_rotation && !ik_quat_is_unit(t.rot, IK_R(1e-4)));
    }
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_zero()); // a zero axis stays zero
    c = ik_chain_make(j, 1, ik_xform_identity());
    CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG);
    c = ik_chain_make(NULL, 1, ik_xform_identity());
    CHECK(ik_chain_validate(&c) == IK_ERR_NULL_ARG);
    CHECK(ik_ccd_scratch_size(NULL) == 0 && ik_jacobian_scratch_size(NULL) == 0);
    // the defaults are valid options (a solve with them is not IK_ERR_BAD_OPTS)
    {
        ik_ccd_opts co = ik_default_ccd_opts();
        ik_jacobian_opts jo = ik_default_jacobian_opts();
        ik_arm_opts ao = ik_default_arm_opts();
        ik_real q[1] = { 0 };
        j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
        c = ik_chain_make(j, 1, ik_xform_translation(ik_vec3_make(1, 0, 0)));
        t = ik_target_position(ik_vec3_make(0, 1, 0));
        CHECK(ik_ccd_solve(&c, &t, &co, q, scratch, sizeof scratch, NULL) == IK_OK);
        q[0] = 0;
        CHECK(ik_jacobian_solve(&c, &t, &jo, q, scratch, sizeof scratch, NULL) == IK_OK);
        q[0] = 0;
        CHECK(ik_arm_solve(&c, &t, &ao, q, scratch, sizeof scratch, NULL) == IK_OK);
        CHECK_NEAR(q[0], IK_PI / 2, 1e-5);
    }
}

static void test_robust_chain_validate(void)
{
    static ik_joint many[IK_MAX_JOINTS + 1];
    ik_joint j[3], b[3];
    ik_chain c = arm3(j), bc;
    int k, f;
    CHECK(ik_chain_validate(&c) == IK_OK && ik_chain_dof(&c) == 5);
    CHECK(ik_chain_validate(NULL) == IK_ERR_NULL_ARG && ik_chain_dof(NULL) == -1);
    bc = c;
    bc.joints = NULL;
    CHECK(ik_chain_validate(&bc) == IK_ERR_NULL_ARG && ik_chain_state_index(&bc, 0) == -1);
    for (k = 0; k < 3; k++) {
        static const int counts[3] = { 0, -1, IK_MAX_JOINTS + 1 };
        bc = c;
        bc.joint_count = counts[k]; // never read past the array: validation stops first
        CHECK(ik_chain_validate(&bc) == IK_ERR_BAD_ARG && ik_chain_dof(&bc) == -1);
    }
    // exactly IK_MAX_JOINTS joints is fine
    for (k = 0; k < IK_MAX_JOINTS + 1; k++)
        many[k] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    bc = ik_chain_make(many, IK_MAX_JOINTS, ik_xform_identity());
    CHECK(ik_chain_validate(&bc) == IK_OK && ik_chain_dof(&bc) == IK_MAX_JOINTS);
    CHECK(ik_chain_state_index(&bc, IK_MAX_JOINTS - 1) == IK_MAX_JOINTS - 1);
    CHECK(ik_chain_state_index(&c, -1) == -1 && ik_chain_state_index(&c, 3) == -1);
    CHECK(ik_chain_state_index(&c, 2) == 4);
    // one bad field at a time, in each joint
    for (f = 0; f < 19; f++)
        for (k = 0; k < 3; k++) {
            ik_joint *x = &b[k];
            int expect_ok = 0;
            memcpy(b, j, sizeof b);
            bc = ik_chain_make(b, 3, c.tip);
            switch (f) {
            case 0: x->type = (ik_joint_type)7; break;
            case 1: x->type = (ik_joint_type)-1; break;
            case 2: x->origin.pos.y = bad_real(0); break;
            case 3: x->origin.pos.z = bad_real(3); break;
            case 4: x->origin.rot = ik_quat_make(0, 0, 0, 2); break;     // not unit
            case 5: x->origin.rot = ik_quat_make(0, 0, 0, 0); break;     // zero
            case 6: x->origin.rot.x = bad_real(0); break;                // NaN
            case 7: x->axis = ik_vec3_zero(), expect_ok = k == 1; break; // ball: ignored
            case 8: x->axis = ik_vec3_make(0, 0, 2), expect_ok = k == 1; break;
            case 9: x->lo = bad_real(0); break;
            case 10: x->lo = 1, x->hi = -1; break; // min > max
            case 11: x->lo = IK_INFINITY; break;
            case 12: x->hi = -IK_INFINITY; break;
            case 13: x->weight = -1; break;
            case 14: x->weight = bad_real(1); break;
            case 15:
                x->weight = 0, expect_ok = 1;
                break; // frozen: fine
            // a limit: fine, except on the ball joint (no ball limits: refused, not ignored)
            case 16: x->lo = -1, expect_ok = k != 1; break;
            case 17: x->hi = IK_R(1e30), expect_ok = k != 1; break;
            default: x->lo = x->hi = IK_R(0.25), expect_ok = k != 1; break; // lo = hi
            }
            CHECK(ik_chain_validate(&bc) == (expect_ok ? IK_OK : IK_ERR_BAD_ARG));
        }
    bc = c;
    bc.tip.pos.x = bad_real(1);
    CHECK(ik_chain_validate(&bc) == IK_ERR_BAD_ARG);
    bc.tip = ik_xform_make(ik_quat_identity(), ik_vec3_make(0, 0, IK_MAX_MAGNITUDE));
    CHECK(ik_chain_validate(&bc) == IK_OK);
    // coincident joints (zero-length bones) and a zero tip are valid
    for (k = 0; k < 3; k++)
        b[k] = j[k], b[k].origin.pos = ik_vec3_zero();
    bc = ik_chain_make(b, 3, ik_xform_identity());
    CHECK(ik_chain_validate(&bc) == IK_OK);
}

// ik_chain_fk and ik_chain_jacobian: NULL, bad q, bad rows; extreme but valid q; degenerate
// chains (coincident joints). Outputs untouched on error.
static void test_robust_fk_jacobian(void)
{
    ik_joint j[3], b[3];
    ik_chain c = arm3(j), cc;
    ik_real q[5] = { IK_R(0.3), IK_R(0.1), IK_R(-0.2), IK_R(0.4), IK_R(0.5) }, bq[5];
    ik_real jac[6 * 5];
    ik_xform fr[3], eff;
    int k, i;
    memset(fr, FILL, sizeof fr);
    memset(&eff, FILL, sizeof eff);
    memset(jac, FILL, sizeof jac);
    CHECK(ik_chain_fk(NULL, q, fr, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_fk(&c, NULL, fr, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_jacobian(NULL, q, 6, jac, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_jacobian(&c, NULL, 6, jac, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_jacobian(&c, q, 6, NULL, &eff) == IK_ERR_NULL_ARG);
    for (k = -1; k <= 7; k++)
        if (k != 3 && k != 6)
            CHECK(ik_chain_jacobian(&c, q, k, jac, &eff) == IK_ERR_BAD_ARG);
    for (k = 0; k < BAD_REALS; k++)
        for (i = 0; i < 5; i++) {
            memcpy(bq, q, sizeof q);
            bq[i] = bad_real(k);
            CHECK(ik_chain_fk(&c, bq, fr, &eff) == IK_ERR_BAD_ARG);
            CHECK(ik_chain_jacobian(&c, bq, 3, jac, &eff) == IK_ERR_BAD_ARG);
        }
    cc = c;
    cc.joint_count = 0;
    CHECK(ik_chain_fk(&cc, q, fr, &eff) == IK_ERR_BAD_ARG);
    CHECK(untouched(fr, sizeof fr) && untouched(&eff, sizeof eff) && untouched(jac, sizeof jac));
    // extreme valid values: finite outputs (either output may be NULL)
    for (k = 0; k < EXTREME_REALS; k++) {
        for (i = 0; i < 5; i++)
            bq[i] = extreme_real(k);
        CHECK(ik_chain_fk(&c, bq, fr, &eff) == IK_OK);
        CHECK(reals_finite(&eff.rot.x, 4) && ik_vec3_is_finite(eff.pos) && quat_unit(eff.rot));
        CHECK(ik_chain_fk(&c, bq, NULL, NULL) == IK_OK);
        CHECK(ik_chain_jacobian(&c, bq, 6, jac, NULL) == IK_OK && reals_finite(jac, 30));
    }
    // coincident joints: every bone zero, the Jacobian's position rows of rotations are zero
    for (k = 0; k < 3; k++)
        b[k] = j[k], b[k].origin.pos = ik_vec3_zero();
    cc = ik_chain_make(b, 3, ik_xform_identity());
    CHECK(ik_chain_jacobian(&cc, q, 6, jac, &eff) == IK_OK && reals_finite(jac, 30));
    CHECK(ik_chain_fk(&cc, q, fr, &eff) == IK_OK && test_vec3_dist(fr[0].pos, fr[1].pos) == 0);
}

// ik_joint_from_urdf and ik_joints_from_dh.
static void test_robust_urdf_dh(void)
{
    ik_joint out, outs[3];
    ik_xform tip;
    ik_dh_row rows[3];
    ik_vec3 z = ik_vec3_make(0, 0, 1), o = ik_vec3_zero();
    int k, f;
    memset(&out, FILL, sizeof out);
    CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, o, o, z, -1, 1, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_joint_from_urdf(IK_JOINT_BALL, o, o, z, -1, 1, &out) == IK_ERR_BAD_ARG);
    CHECK(ik_joint_from_urdf((ik_joint_type)9, o, o, z, -1, 1, &out) == IK_ERR_BAD_ARG);
    CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, o, o, o, -1, 1, &out) == IK_ERR_BAD_ARG);
    CHECK(ik_joint_from_urdf(IK_JOINT_PRISMATIC, o, o, ik_vec3_make(IK__REAL_MIN / 8, 0, 0), -1, 1,
                             &out) == IK_ERR_BAD_ARG); // a denormal axis has no direction
    CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, o, o, z, 1, -1, &out) == IK_ERR_BAD_ARG);
    for (k = 0; k < BAD_REALS; k++) {
        ik_vec3 bv = ik_vec3_make(bad_real(k), 0, 0);
        CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, bv, o, z, -1, 1, &out) == IK_ERR_BAD_ARG);
        CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, o, bv, z, -1, 1, &out) == IK_ERR_BAD_ARG);
        CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, o, o, bv, -1, 1, &out) == IK_ERR_BAD_ARG);
    }
    CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, o, o, z, bad_real(0), 1, &out) == IK_ERR_BAD_ARG);
    CHECK(untouched(&out, sizeof out));
    // a fixed joint ignores its axis; a non-unit axis is normalized; no limits is fine
    CHECK(ik_joint_from_urdf(IK_JOINT_FIXED, o, o, o, -1, 1, &out) == IK_OK);
    CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, o, o, ik_vec3_make(0, 0, 5), -IK_INFINITY,
                             IK_INFINITY, &out) == IK_OK);
    CHECK_NEAR(ik_vec3_length(out.axis), 1, 1e-6);

    for (k = 0; k < 3; k++) {
        rows[k].type = IK_JOINT_REVOLUTE;
        rows[k].a = IK_R(0.5), rows[k].alpha = IK_R(0.3), rows[k].d = IK_R(0.1);
        rows[k].theta = 0, rows[k].lo = -1, rows[k].hi = 1;
    }
    memset(outs, FILL, sizeof outs);
    memset(&tip, FILL, sizeof tip);
    CHECK(ik_joints_from_dh(NULL, 3, IK_DH_CLASSIC, outs, &tip) == IK_ERR_NULL_ARG);
    CHECK(ik_joints_from_dh(rows, 3, IK_DH_CLASSIC, NULL, &tip) == IK_ERR_NULL_ARG);
    CHECK(ik_joints_from_dh(rows, 3, IK_DH_CLASSIC, outs, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_joints_from_dh(rows, 0, IK_DH_CLASSIC, outs, &tip) == IK_ERR_BAD_ARG);
    CHECK(ik_joints_from_dh(rows, IK_MAX_JOINTS + 1, IK_DH_CLASSIC, outs, &tip) == IK_ERR_BAD_ARG);
    CHECK(ik_joints_from_dh(rows, 3, (ik_dh_convention)2, outs, &tip) == IK_ERR_BAD_ARG);
    for (f = 0; f < 8; f++) {
        ik_dh_row save = rows[2];
        switch (f) {
        case 0: rows[2].type = IK_JOINT_BALL; break;
        case 1: rows[2].a = bad_real(0); break;
        case 2: rows[2].alpha = bad_real(1); break;
        case 3: rows[2].d = bad_real(3); break;
        case 4: rows[2].theta = bad_real(2); break;
        case 5: rows[2].lo = 2; break; // lo > hi
        case 6: rows[2].hi = bad_real(0); break;
        default: rows[2].type = (ik_joint_type)5; break;
        }
        CHECK(ik_joints_from_dh(rows, 3, IK_DH_MODIFIED, outs, &tip) == IK_ERR_BAD_ARG);
        rows[2] = save;
    }
    CHECK(untouched(outs, sizeof outs) && untouched(&tip, sizeof tip));
    CHECK(ik_joints_from_dh(rows, 3, IK_DH_CLASSIC, outs, &tip) == IK_OK);
}

// ---- SVD ---------------------------------------------------------------------------------------

static void test_robust_svd(void)
{
    ik_real a[6] = { 1, 2, 3, 4, 5, 6 }, ba[6], u[6], s[3], v[9], p[6];
    size_t need = ik_svd_scratch_size(2, 3);
    int k, i;
    memset(u, FILL, sizeof u);
    memset(s, FILL, sizeof s);
    memset(v, FILL, sizeof v);
    memset(p, FILL, sizeof p);
    CHECK(ik_svd(NULL, 2, 3, u, s, v) == IK_ERR_NULL_ARG);
    CHECK(ik_svd(a, 2, 3, NULL, s, v) == IK_ERR_NULL_ARG);
    CHECK(ik_svd(a, 2, 3, u, NULL, v) == IK_ERR_NULL_ARG);
    CHECK(ik_svd(a, 2, 3, u, s, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_svd(a, 0, 3, u, s, v) == IK_ERR_BAD_ARG &&
          ik_svd(a, 2, -1, u, s, v) == IK_ERR_BAD_ARG);
    CHECK(ik_svd(a, 1, IK_MAX_JOINTS * 64 + 1, u, s, v) == IK_ERR_BAD_ARG);
    CHECK(ik_svd(a, 1 << 16, 1 << 16, u, s, v) == IK_ERR_BAD_ARG); // m * n overflows an int
    CHECK(ik_svd_scratch_size(0, 3) == 0 && ik_svd_scratch_size(1 << 16, 1 << 16) == 0);
    for (k = 0; k < BAD_REALS; k++)
        for (i = 0; i < 6; i++) {
            memcpy(ba, a, sizeof a);
            ba[i] = bad_real(k);
            CHECK(ik_svd(ba, 2, 3, u, s, v) == IK_ERR_BAD_ARG);
            CHECK(ik_svd_pinv(ba, 2, 3, 0, p, scratch, need) == IK_ERR_BAD_ARG);
            CHECK(ik_svd_damped_pinv(ba, 2, 3, 1, p, scratch, need) == IK_ERR_BAD_ARG);
        }
    CHECK(ik_svd_pinv(a, 2, 3, 0, p, scratch, need - 1) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_svd_pinv(a, 2, 3, 0, p, scratch, 0) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_svd_pinv(a, 2, 3, 0, p, NULL, need) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_pinv(a, 2, 3, 0, NULL, scratch, need) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_damped_pinv(a, 2, 3, 1, p, scratch + 1, need - 1) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_svd_pinv(a, 2, 3, -IK_R(0.1), p, scratch, need) == IK_ERR_BAD_ARG);
    CHECK(ik_svd_pinv(a, 2, 3, 1, p, scratch, need) == IK_ERR_BAD_ARG);
    CHECK(ik_svd_pinv(a, 2, 3, bad_real(0), p, scratch, need) == IK_ERR_BAD_ARG);
    CHECK(ik_svd_damped_pinv(a, 2, 3, -1, p, scratch, need) == IK_ERR_BAD_ARG);
    CHECK(ik_svd_damped_pinv(a, 2, 3, bad_real(1), p, scratch, need) == IK_ERR_BAD_ARG);
    CHECK(untouched(u, sizeof u) && untouched(s, sizeof s) && untouched(v, sizeof v));
    CHECK(untouched(p, sizeof p));
    // misaligned scratch works
    for (k = 1; k < 8; k++)
        CHECK(ik_svd_pinv(a, 2, 3, 0, p, scratch + k, need) == IK_OK && reals_finite(p, 6));
    // zero, rank-deficient, denormal and huge matrices: finite answers (a matrix whose
    // pseudo-inverse is not representable gets IK_ERR_NUMERIC, outputs untouched)
    for (k = 0; k < 5; k++) {
        ik_result r;
        for (i = 0; i < 6; i++) {
            switch (k) {
            case 0: ba[i] = 0; break;
            case 1: ba[i] = (ik_real)(i % 3 + 1); break; // two equal rows
            case 2: ba[i] = IK__REAL_MIN / 8 * (ik_real)(i + 1); break;
            case 3: ba[i] = IK_MAX_MAGNITUDE * (ik_real)(i % 2 ? -1 : 1); break;
            default: ba[i] = i == 0 ? IK_MAX_MAGNITUDE : IK_R(1e-30); break;
            }
        }
        CHECK(ik_svd(ba, 2, 3, u, s, v) == IK_OK);
        CHECK(reals_finite(u, 6) && reals_finite(s, 2) && reals_finite(v, 6));
        memset(p, FILL, sizeof p);
        r = ik_svd_pinv(ba, 2, 3, 0, p, scratch, need);
        CHECK(r == IK_OK ? reals_finite(p, 6) : (r == IK_ERR_NUMERIC && untouched(p, sizeof p)));
        CHECK(k != 0 || (r == IK_OK && p[0] == 0)); // the pseudo-inverse of 0 is 0
        memset(p, FILL, sizeof p);
        r = ik_svd_damped_pinv(ba, 2, 3, IK_R(0.1), p, scratch, need);
        CHECK(r == IK_OK ? reals_finite(p, 6) : (r == IK_ERR_NUMERIC && untouched(p, sizeof p)));
    }
}

// Outputs that overlap the matrix or each other (ik_svd), or the scratch (the pseudo-inverses):
// the decomposition wrote over what it read (a silently wrong answer). IK_ERR_BAD_ARG, the
// caller's arrays untouched; the same arrays side by side, IK_OK and the right answer.
static void test_robust_svd_overlap(void)
{
    static const ik_real a0[6] = { 1, 2, 3, 4, 5, 6 };
    ik_real buf[24], keep[24], *a = buf, *u = buf + 6, *s = buf + 10, *v = buf + 12, *in;
    size_t need = ik_svd_scratch_size(2, 3);
    unsigned char *base = scratch_at(0);
    int k, r, c;
    // 2 x 3: a at 0, U 2 x 2 at 6, s 2 at 10, V 3 x 2 at 12 fit side by side; these offsets of
    // U, s, V overlap by one real (U on a, s on U, V on s, s on V, s on a) or wholly (U or V
    // the matrix itself)
    static const int at[7][3] = { { 5, 10, 12 }, { 6, 9, 12 },  { 6, 10, 11 }, { 6, 17, 12 },
                                  { 6, 5, 12 },  { 0, 10, 12 }, { 6, 10, 0 } };
    for (k = 0; k < 7; k++) {
        memset(buf, FILL, sizeof buf);
        memcpy(a, a0, sizeof a0);
        memcpy(keep, buf, sizeof buf);
        CHECK(ik_svd(a, 2, 3, buf + at[k][0], buf + at[k][1], buf + at[k][2]) == IK_ERR_BAD_ARG);
        CHECK(memcmp(buf, keep, sizeof buf) == 0);
    }
    memset(buf, FILL, sizeof buf);
    memcpy(a, a0, sizeof a0);
    CHECK(ik_svd(a, 2, 3, u, s, v) == IK_OK);
    for (r = 0; r < 2; r++)
        for (c = 0; c < 3; c++)
            CHECK_NEAR(u[r * 2] * s[0] * v[c * 2] + u[r * 2 + 1] * s[1] * v[c * 2 + 1],
                       a0[r * 3 + c], TOL(1e-13, 1e-5));
    CHECK(memcmp(a, a0, sizeof a0) == 0 && untouched(buf + 18, 6 * sizeof(ik_real)));
    // the pseudo-inverses: the matrix at the scratch's start or on its last real, the output on
    // its last real: refused; the matrix just past its end: the pseudo-inverse (A A+ A = A)
    for (k = 0; k < 4; k++) {
        ik_real *out, x;
        const ik_real *mat;
        in = k == 0 ? (ik_real *)(void *)base : (ik_real *)(void *)scratch_at(need) - (k < 3);
        memset(scratch, FILL, sizeof scratch);
        memcpy(in, a0, sizeof a0);
        mat = k == 2 ? a0 : in;
        out = k == 2 ? in : buf;
        CHECK(ik_svd_pinv(mat, 2, 3, 0, out, base, need) == (k < 3 ? IK_ERR_BAD_ARG : IK_OK));
        CHECK(k == 3 || memcmp(in, a0, sizeof a0) == 0);
        CHECK(ik_svd_damped_pinv(mat, 2, 3, IK_R(0.1), out, base, need) ==
              (k < 3 ? IK_ERR_BAD_ARG : IK_OK));
        CHECK(k == 3 || memcmp(in, a0, sizeof a0) == 0);
        if (k == 3) {
            CHECK(ik_svd_pinv(mat, 2, 3, 0, out, base, need) == IK_OK);
            for (r = 0; r < 2; r++)
                for (c = 0; c < 3; c++) { // (A A+ A)_rc, A+ 3 x 2
                    int i, j;
                    x = 0;
                    for (i = 0; i < 3; i++)
                        for (j = 0; j < 2; j++)
                            x += a0[r * 3 + i] * out[i * 2 + j] * a0[j * 3 + c];
                    CHECK_NEAR(x, a0[r * 3 + c], TOL(1e-12, 1e-4));
                }
        }
    }
}

// ---- chain solvers -----------------------------------------------------------------------------

// A 4-joint arm: revolute, ball, revolute (limited), prismatic (limited); reach about 3.6.
static ik_chain solver_chain(ik_joint *j)
{
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_ball(ik_xform_translation(ik_vec3_make(0, 0, 1)));
    j[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(0, 1, 0));
    j[2].lo = -2, j[2].hi = 2;
    j[3] = ik_joint_prismatic(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(0, 0, 1));
    j[3].lo = 0, j[3].hi = IK_R(0.5);
    return ik_chain_make(j, 4, ik_xform_translation(ik_vec3_make(0, 0, IK_R(0.1))));
}
#define SOLVER_DOF 6

typedef ik_result (*solve_fn)(const ik_chain *, const ik_target *, int bad_opts, ik_real *, void *,
                              size_t, ik_solve_info *);

// bad_opts: 0 defaults, -1 NULL options, 1.. one field out of range (or not from the defaults)
static ik_result ccd_call(const ik_chain *c, const ik_target *t, int bad_opts, ik_real *q, void *s,
                          size_t n, ik_solve_info *info)
{
    ik_ccd_opts o = ik_default_ccd_opts();
    switch (bad_opts) {
    case 1: memset(&o, 0, sizeof o); break; // not from ik_default_ccd_opts()
    case 2: o.max_sweeps = 0; break;
    case 3: o.tolerance = -1; break;
    case 4: o.rotation_tolerance = bad_real(0); break;
    case 5: o.position_weight = bad_real(1); break;
    case 6: o.orientation_weight = -1; break;
    case 7: o.length_scale = -1; break;
    case 8: o.max_angle = 0; break;
    case 9: o.max_angle = 4; break;
    case 10: o.min_improvement = 1; break;
    case 11: o._valid = 0; break;
    default: break;
    }
    return ik_ccd_solve(c, t, bad_opts < 0 ? NULL : &o, q, s, n, info);
}
#define CCD_BAD_OPTS 11

// Default Jacobian options with field bad_opts (1..) out of range; bad_opts 15: rest (a pose
// with an Inf: IK_ERR_BAD_ARG), 16: a rest pose inside the scratch s (IK_ERR_BAD_ARG too).
static ik_jacobian_opts jacobian_opts_bad(int bad_opts, const ik_real *rest, void *s)
{
    ik_jacobian_opts o = ik_default_jacobian_opts();
    switch (bad_opts) {
    case 1: memset(&o, 0, sizeof o); break;
    case 2: o.method = (ik_jacobian_method)4; break;
    case 3: o.ball_param = (ik_ball_param)2; break;
    case 4: o.max_iterations = 0; break;
    case 5: o.tolerance = -1; break;
    case 6: o.rotation_tolerance = bad_real(0); break;
    case 7: o.orientation_weight = -1; break;
    case 8: o.damping = bad_real(1); break;
    case 9: o.rcond = 1; break;
    case 10: o.max_step = 0; break;
    case 11: o.max_joint_step = bad_real(1); break;
    case 12: o.rest_gain = IK_R(1.5); break;
    case 13: o.min_improvement = -IK_R(0.1); break;
    case 14: o._valid = 1; break;
    case 15: o.rest = rest; break;
    case 16: o.rest = (const ik_real *)s + 2; break;
    default: break;
    }
    return o;
}

static ik_result jacobian_call(const ik_chain *c, const ik_target *t, int bad_opts, ik_real *q,
                               void *s, size_t n, ik_solve_info *info)
{
    static const ik_real bad_rest[SOLVER_DOF] = { 0, 0, 0, 0, 0, (ik_real)HUGE_VAL };
    ik_jacobian_opts o = jacobian_opts_bad(bad_opts, bad_rest, s);
    return ik_jacobian_solve(c, t, bad_opts < 0 ? NULL : &o, q, s, n, info);
}
#define JACOBIAN_BAD_OPTS 14

static ik_result arm_call(const ik_chain *c, const ik_target *t, int bad_opts, ik_real *q, void *s,
                          size_t n, ik_solve_info *info)
{
    static const ik_real bad_rest[SOLVER_DOF] = { 0, 0, 0, 0, 0, (ik_real)HUGE_VAL };
    ik_arm_opts o = ik_default_arm_opts();
    o.max_attempts = 20;
    switch (bad_opts) {
    case 1: memset(&o, 0, sizeof o); break;
    case 2: o.max_attempts = 0; break;
    case 3: o.probe_iterations = -1; break;
    case 4: o.probe_error = bad_real(1); break;
    case 5: o.probe_error = -1; break;
    case 6: o._valid = 0; break;
    case 7: o.jacobian.max_iterations = 0; break;
    case 8: o.jacobian._valid = 1; break;
    case 9: o.jacobian.damping = bad_real(2); break;
    case 10: o.jacobian.rest = bad_rest; break;               // a bad rest pose: IK_ERR_BAD_ARG
    case 11: o.jacobian.rest = (const ik_real *)s + 2; break; // inside the scratch: too
    default: break;
    }
    return ik_arm_solve(c, t, bad_opts < 0 ? NULL : &o, q, s, n, info);
}
#define ARM_BAD_OPTS 9

// q, info, the chain, its joints or the rest pose inside the scratch (need bytes at
// scratch_at(0)): the solver wrote over them while it read them (a Jacobian solve returned
// "converged" with q 1.3 from the target). IK_ERR_BAD_ARG, each of them untouched; placed
// just past the scratch's end, IK_OK.
static void robust_solver_overlap(solve_fn solve, const ik_chain *c, size_t need,
                                  int bad_opts_count)
{
    ik_target t = ik_target_position(ik_vec3_make(1, IK_R(0.5), IK_R(2.5)));
    ik_real q0[SOLVER_DOF] = { IK_R(0.1), 0, IK_R(0.2), 0, IK_R(0.3), IK_R(0.1) }, q[SOLVER_DOF];
    unsigned char *base = scratch_at(0), *past = scratch_at(need);
    ik_real *in;
    ik_solve_info info, *pinfo;
    ik_joint *pj;
    ik_chain *pc, cc;
    size_t off;
    CHECK(need % sizeof(ik_real) == 0);
    CHECK(need + 1024 <= sizeof scratch - 16);
    // q: its first value on the scratch's last real, on its first, past its end
    for (off = 0; off < 3; off++) {
        in = off == 0 ? (ik_real *)(void *)past - 1 : (ik_real *)(void *)(off == 1 ? base : past);
        memcpy(in, q0, sizeof q0);
        memset(&info, FILL, sizeof info);
        CHECK(solve(c, &t, 0, in, base, need, &info) == (off == 2 ? IK_OK : IK_ERR_BAD_ARG));
        CHECK(off == 2 || (memcmp(in, q0, sizeof q0) == 0 && untouched(&info, sizeof info)));
        CHECK(off != 2 || info.status == IK_STATUS_CONVERGED);
    }
    // info, the chain and its joints
    memcpy(q, q0, sizeof q);
    pinfo = (ik_solve_info *)(void *)scratch_at(need - 16);
    memset(pinfo, FILL, sizeof *pinfo);
    CHECK(solve(c, &t, 0, q, base, need, pinfo) == IK_ERR_BAD_ARG);
    CHECK(untouched(pinfo, sizeof *pinfo));
    pj = (ik_joint *)(void *)scratch_at(64);
    memcpy(pj, c->joints, (size_t)c->joint_count * sizeof(ik_joint));
    cc = ik_chain_make(pj, c->joint_count, c->tip);
    memset(&info, FILL, sizeof info);
    CHECK(solve(&cc, &t, 0, q, base, need, &info) == IK_ERR_BAD_ARG);
    CHECK(memcmp(pj, c->joints, (size_t)c->joint_count * sizeof(ik_joint)) == 0);
    pc = (ik_chain *)(void *)scratch_at(16);
    *pc = *c;
    CHECK(solve(pc, &t, 0, q, base, need, &info) == IK_ERR_BAD_ARG);
    CHECK(memcmp(pc, c, sizeof *c) == 0);
    CHECK(memcmp(q, q0, sizeof q) == 0 && untouched(&info, sizeof info));
    // the rest pose (Jacobian solver and arm: two reals into the scratch, zeros there)
    if (bad_opts_count != CCD_BAD_OPTS) {
        memset(base, 0, 8 * sizeof(ik_real));
        CHECK(solve(c, &t, bad_opts_count + 2, q, base, need, &info) == IK_ERR_BAD_ARG);
        CHECK(memcmp(q, q0, sizeof q) == 0 && untouched(&info, sizeof info));
    }
}

// The bad-input table for one chain solver.
static void robust_solver(solve_fn solve, size_t (*size_fn)(const ik_chain *), int bad_opts_count,
                          const char *name)
{
    ik_joint j[4], b[4];
    ik_chain c = solver_chain(j), bc;
    ik_target t = ik_target_position(ik_vec3_make(1, IK_R(0.5), IK_R(2.5))), bt;
    ik_real q[SOLVER_DOF] = { IK_R(0.1), 0, IK_R(0.2), 0, IK_R(0.3), IK_R(0.1) }, q0[SOLVER_DOF];
    ik_real bq[SOLVER_DOF];
    ik_solve_info info;
    size_t need = size_fn(&c);
    int k, i, bad_before = ik_test_failed;
    ik_result r;
    memcpy(q0, q, sizeof q);
    memset(&info, FILL, sizeof info);
    CHECK(need > 0 && need <= sizeof scratch);
    // NULL arguments
    CHECK(solve(NULL, &t, 0, q, scratch, need, &info) == IK_ERR_NULL_ARG);
    CHECK(solve(&c, NULL, 0, q, scratch, need, &info) == IK_ERR_NULL_ARG);
    CHECK(solve(&c, &t, 0, NULL, scratch, need, &info) == IK_ERR_NULL_ARG);
    CHECK(solve(&c, &t, 0, q, NULL, need, &info) == IK_ERR_NULL_ARG);
    bc = c;
    bc.joints = NULL;
    CHECK(solve(&bc, &t, 0, q, scratch, need, &info) == IK_ERR_NULL_ARG);
    // counts 0 and beyond the maximum, a bad joint, limits with min > max
    bc = c;
    bc.joint_count = 0;
    CHECK(solve(&bc, &t, 0, q, scratch, need, &info) == IK_ERR_BAD_ARG);
    bc.joint_count = IK_MAX_JOINTS + 1;
    CHECK(solve(&bc, &t, 0, q, scratch, need, &info) == IK_ERR_BAD_ARG);
    memcpy(b, j, sizeof b);
    b[2].lo = 1, b[2].hi = -1;
    bc = ik_chain_make(b, 4, c.tip);
    CHECK(solve(&bc, &t, 0, q, scratch, need, &info) == IK_ERR_BAD_ARG);
    memcpy(b, j, sizeof b);
    b[0].axis = ik_vec3_zero();
    CHECK(solve(&bc, &t, 0, q, scratch, need, &info) == IK_ERR_BAD_ARG);
    memcpy(b, j, sizeof b);
    b[1].lo = -1, b[1].hi = 1; // limits on the ball joint: refused, not ignored
    CHECK(solve(&bc, &t, 0, q, scratch, need, &info) == IK_ERR_BAD_ARG);
    // bad state values, bad targets
    for (k = 0; k < BAD_REALS; k++) {
        for (i = 0; i < SOLVER_DOF; i++) {
            memcpy(bq, q, sizeof q);
            bq[i] = bad_real(k);
            CHECK(solve(&c, &t, 0, bq, scratch, need, &info) == IK_ERR_BAD_ARG);
        }
        bt = t;
        bt.pos.y = bad_real(k);
        CHECK(solve(&c, &bt, 0, q, scratch, need, &info) == IK_ERR_BAD_ARG);
        bt = ik_target_pose(ik_xform_translation(t.pos));
        bt.rot.z = bad_real(k); // huge (k = 3) is fine: normalized
        r = solve(&c, &bt, 0, q, scratch, need, NULL);
        CHECK(k == 0 ? r == IK_ERR_BAD_ARG : (k == 3 ? r == IK_OK : r == IK_ERR_BAD_ARG));
        memcpy(q, q0, sizeof q);
    }
    bt = ik_target_pose(ik_xform_translation(t.pos));
    bt.rot = ik_quat_make(0, 0, 0, 0); // a zero rotation with use_rotation
    CHECK(solve(&c, &bt, 0, q, scratch, need, &info) == IK_ERR_BAD_ARG);
    // options
    for (k = 1; k <= bad_opts_count; k++)
        CHECK(solve(&c, &t, k, q, scratch, need, &info) == IK_ERR_BAD_OPTS);
    if (bad_opts_count != CCD_BAD_OPTS) // the Jacobian solver's and the arm's bad rest pose
        CHECK(solve(&c, &t, bad_opts_count + 1, q, scratch, need, &info) == IK_ERR_BAD_ARG);
    // scratch too small, by one byte, by all of it
    CHECK(solve(&c, &t, 0, q, scratch, need - 1, &info) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(solve(&c, &t, 0, q, scratch, 0, &info) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(solve(&c, &t, 0, q, scratch + 3, need - 3, &info) == IK_ERR_SCRATCH_TOO_SMALL);
    // through all of that: q and info untouched
    CHECK(memcmp(q, q0, sizeof q) == 0 && untouched(&info, sizeof info));
    robust_solver_overlap(solve, &c, need, bad_opts_count);

    // valid but awkward: NULL options and info, misaligned scratch, an unreachable target,
    // the target at the base, a start outside the limits, denormal and tiny values, a
    // non-unit target rotation (normalized), coincident joints
    CHECK(solve(&c, &t, -1, q, scratch + 5, need, NULL) == IK_OK && reals_finite(q, SOLVER_DOF));
    memcpy(q, q0, sizeof q);
    bt = ik_target_position(ik_vec3_make(100, 0, 0));
    CHECK(solve(&c, &bt, 0, q, scratch, need, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE && reals_finite(q, SOLVER_DOF));
    CHECK(q[4] >= -2 && q[4] <= 2 && q[5] >= 0 && q[5] <= IK_R(0.5));
    bt = ik_target_position(ik_vec3_zero());
    memcpy(q, q0, sizeof q);
    CHECK(solve(&c, &bt, 0, q, scratch, need, &info) == IK_OK && reals_finite(q, SOLVER_DOF));
    CHECK(info.status >= IK_STATUS_CONVERGED && info.status <= IK_STATUS_UNREACHABLE);
    for (k = 0; k < EXTREME_REALS; k++) {
        for (i = 0; i < SOLVER_DOF; i++)
            bq[i] = extreme_real(k); // beyond the limits when huge: clamped first
        memcpy(q, bq, sizeof q);
        r = solve(&c, &t, 0, bq, scratch, need, &info);
        // every value at IK_MAX_MAGNITUDE: a step may carry an unlimited joint past it, and the
        // Jacobian solver then answers IK_ERR_NUMERIC with q untouched
        CHECK(r == IK_OK ||
              (k == EXTREME_REALS - 1 && r == IK_ERR_NUMERIC && !memcmp(q, bq, sizeof q)));
        if (r != IK_OK)
            continue;
        CHECK(reals_finite(bq, SOLVER_DOF) && bq[4] >= -2 && bq[4] <= 2 && bq[5] >= 0 &&
              bq[5] <= IK_R(0.5));
        bt = ik_target_position(ik_vec3_make(extreme_real(k), 0, extreme_real(k)));
        for (i = 0; i < SOLVER_DOF; i++)
            bq[i] = q0[i];
        r = solve(&c, &bt, 0, bq, scratch, need, &info);
        CHECK(r == IK_OK && reals_finite(bq, SOLVER_DOF));
    }
    bt = ik_target_pose(ik_xform_make(ik_quat_identity(), t.pos));
    bt.rot = ik_quat_make(0, 0, 0, 7);
    memcpy(q, q0, sizeof q);
    CHECK(solve(&c, &bt, 0, q, scratch, need, &info) == IK_OK && reals_finite(q, SOLVER_DOF));
    for (k = 0; k < 4; k++)
        b[k] = j[k], b[k].origin.pos = ik_vec3_zero();
    bc = ik_chain_make(b, 4, ik_xform_identity());
    memcpy(q, q0, sizeof q);
    CHECK(solve(&bc, &t, 0, q, scratch, need, &info) == IK_OK && reals_finite(q, SOLVER_DOF));
    CHECK(info.status == IK_STATUS_UNREACHABLE || info.status == IK_STATUS_STALLED ||
          info.status == IK_STATUS_MAX_ITERATIONS);
    if (ik_test_failed != bad_before)
        printf("  (solver %s)\n", name);
}

static ik_result ccd_solve_fn(const ik_chain *c, const ik_target *t, int o, ik_real *q, void *s,
                              size_t n, ik_solve_info *i)
{
    return ccd_call(c, t, o, q, s, n, i);
}

static void test_robust_ccd(void)
{
    robust_solver(ccd_solve_fn, ik_ccd_scratch_size, CCD_BAD_OPTS, "ccd");
    {
        // a prismatic joint chasing a target beyond IK_MAX_MAGNITUDE: IK_ERR_NUMERIC, q
        // untouched (found by the CCD fuzzer; now documented)
        ik_joint j[1];
        ik_chain c;
        ik_target t = ik_target_position(ik_vec3_make(IK_MAX_MAGNITUDE, 0, 0));
        ik_real q[1] = { 0 };
        ik_solve_info info;
        j[0] = ik_joint_prismatic(ik_xform_translation(ik_vec3_make(-IK_MAX_MAGNITUDE, 0, 0)),
                                  ik_vec3_make(1, 0, 0));
        c = ik_chain_make(j, 1, ik_xform_identity());
        memset(&info, FILL, sizeof info);
        CHECK(ik_ccd_solve(&c, &t, NULL, q, scratch, sizeof scratch, &info) == IK_ERR_NUMERIC);
        CHECK(q[0] == 0 && untouched(&info, sizeof info));
    }
}

// A revolute joint whose axis passes through the effector cannot move it: CCD leaves it where it
// is, in every sweep of every solve (before, the rounding noise of the effector's distance
// from the axis chose its turn: 0.3 -> 1.09 rad in 200 sweeps on this chain).
static void test_robust_ccd_axis_through_effector(void)
{
    ik_joint j[3];
    ik_chain c;
    ik_vec3 a = ik_vec3_normalize(ik_vec3_make(IK_R(0.3), IK_R(0.5), IK_R(0.7)));
    ik_real q[3] = { IK_R(0.4), IK_R(-0.7), IK_R(0.3) }, qt[3] = { IK_R(0.9), IK_R(-0.2), 0 };
    ik_xform goal;
    ik_target t;
    ik_ccd_opts o = ik_default_ccd_opts();
    ik_solve_info info;
    int k;
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 1, 0));
    j[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(0, 1, 0));
    j[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, 1)), a);
    c = ik_chain_make(j, 3, ik_xform_translation(ik_vec3_scale(a, IK_R(0.5))));
    CHECK(ik_chain_fk(&c, qt, NULL, &goal) == IK_OK);
    t = ik_target_position(goal.pos);
    o.tolerance = 0;
    o.min_improvement = 0;
    o.max_sweeps = 200;
    for (k = 0; k < 5; k++) {
        CHECK(ik_ccd_solve(&c, &t, &o, q, scratch, sizeof scratch, &info) == IK_OK);
        CHECK(q[2] == IK_R(0.3));
        CHECK(reals_finite(q, 3));
    }
    CHECK((double)info.position_error < 1e-2);
}

// A small chain far from the root (review: the on-axis noise thresholds grew with the chain's
// distance from the root and froze every joint of a 0.15-long chain at 3000 in float): links
// of 0.05 at 3000 (float) or 2e-6 at 1e8 (double), random reachable targets, each reached to
// 2% of a link.
static void test_robust_ccd_far_chain(void)
{
    double root = sizeof(ik_real) == sizeof(float) ? 3000 : 1e8;
    double link = sizeof(ik_real) == sizeof(float) ? 0.05 : 2e-6;
    ik_joint j[3];
    ik_chain c;
    ik_ccd_opts o = ik_default_ccd_opts();
    ik_solve_info info;
    test_rng rng = { 99 };
    int k, i, converged = 0;
    for (i = 0; i < 3; i++)
        j[i] =
            ik_joint_revolute(ik_xform_translation(ik_vec3_make((ik_real)(i ? link : root), 0, 0)),
                              ik_vec3_make(0, 0, 1));
    c = ik_chain_make(j, 3, ik_xform_translation(ik_vec3_make((ik_real)link, 0, 0)));
    o.tolerance = (ik_real)(0.02 * link);
    for (k = 0; k < 30; k++) {
        ik_real qt[3], q[3] = { 0, 0, 0 };
        ik_xform goal;
        ik_target t;
        for (i = 0; i < 3; i++)
            qt[i] = (ik_real)test_rng_uniform(&rng, -2.5, 2.5);
        CHECK(ik_chain_fk(&c, qt, NULL, &goal) == IK_OK);
        t = ik_target_position(goal.pos);
        CHECK(ik_ccd_solve(&c, &t, &o, q, scratch, sizeof scratch, &info) == IK_OK);
        converged += info.status == IK_STATUS_CONVERGED;
    }
    CHECK(converged >= 28);
}

static void test_robust_jacobian(void)
{
    robust_solver(jacobian_call, ik_jacobian_scratch_size, JACOBIAN_BAD_OPTS, "jacobian");
    {
        // A prismatic joint of huge travel makes the default orientation weight (the reach per
        // movable joint) huge: the rotation error's squares overflowed and info said Inf after
        // an iteration that did not converge (found by fuzz:jacobian; its input is in the
        // corpus as regression-jacobian-rotation-error). Every method, one iteration: finite
        // errors, or IK_ERR_NUMERIC (the task error itself overflows) with q untouched.
        ik_joint j[2];
        ik_chain c;
        ik_target t = ik_target_pose(ik_xform_make(
            ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), 1), ik_vec3_make(0, 1, 1)));
        ik_jacobian_opts o = ik_default_jacobian_opts();
        ik_solve_info info;
        int m;
        j[0] = ik_joint_ball(ik_xform_identity());
        j[1] =
            ik_joint_prismatic(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(0, 0, 1));
        j[1].lo = (ik_real)-pow((double)IK__REAL_MAX, 0.75), j[1].hi = 0; // (its square overflows)
        c = ik_chain_make(j, 2, ik_xform_translation(ik_vec3_make(1, 0, 0)));
        o.max_iterations = 1;
        for (m = 0; m < 4; m++) {
            ik_real q[4] = { 0, 0, 0, 0 };
            o.method = (ik_jacobian_method)m;
            ik_result r;
            memset(&info, FILL, sizeof info);
            r = ik_jacobian_solve(&c, &t, &o, q, scratch, sizeof scratch, &info);
            CHECK(r == IK_OK || (r == IK_ERR_NUMERIC && q[0] == 0 && q[3] == 0));
            CHECK(r != IK_OK || (reals_finite(q, 4) && reals_finite(&info.position_error, 1) &&
                                 reals_finite(&info.rotation_error, 1)));
        }
    }
}

// ---- skeletons ---------------------------------------------------------------------------------

#define TREE_JOINTS    6
#define TREE_DOF       7
#define TREE_EFFECTORS 4

// A tree: a hinge, a limited ball, then two branches (a limited hinge and a slider; a hinge and
// a fixed tip); effectors of four kinds, one of priority 1, one blended.
typedef struct robust_tree {
    ik_joint joints[TREE_JOINTS];
    int parents[TREE_JOINTS];
    ik_ball_limit limit;
    ik_skeleton skeleton;
    ik_effector effectors[TREE_EFFECTORS];
} robust_tree;

static void robust_tree_make(robust_tree *t)
{
    static const int parents[TREE_JOINTS] = { -1, 0, 1, 2, 1, 4 };
    ik_joint *j = t->joints;
    ik_effector *e = t->effectors;
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_ball(ik_xform_translation(ik_vec3_make(0, 0, 1)));
    CHECK(ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), 1, IK_R(0.8), -1, 1,
                             &t->limit) == IK_OK);
    j[1].limit = &t->limit;
    j[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(0, 1, 0));
    j[2].lo = -2, j[2].hi = 2;
    j[3] = ik_joint_prismatic(ik_xform_translation(ik_vec3_make(0, 0, 1)), ik_vec3_make(0, 0, 1));
    j[3].lo = 0, j[3].hi = IK_R(0.5);
    j[4] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(IK_R(0.5), 0, 1)),
                             ik_vec3_make(1, 0, 0));
    j[5] = ik_joint_fixed(ik_xform_translation(ik_vec3_make(0, 0, IK_R(0.5))));
    memcpy(t->parents, parents, sizeof parents);
    t->skeleton = ik_skeleton_make(j, t->parents, TREE_JOINTS);
    e[0] = ik_effector_make(3, ik_xform_translation(ik_vec3_make(0, 0, IK_R(0.1))),
                            IK_EFFECTOR_POSITION, ik_vec3_make(1, IK_R(0.5), IK_R(2.5)));
    e[1] = ik_effector_make(5, ik_xform_identity(), IK_EFFECTOR_AIM, ik_vec3_make(2, 2, 2));
    e[2] = ik_effector_make(4, ik_xform_identity(), IK_EFFECTOR_DIRECTION, ik_vec3_make(0, 1, 0));
    e[2].axis = ik_vec3_make(1, 0, 0);
    e[2].priority = 1;
    e[3] = ik_effector_make(5, ik_xform_identity(), IK_EFFECTOR_FREE_AXIS, ik_vec3_make(1, 1, 2));
    e[3].target_rot = ik_quat_from_axis_angle(ik_vec3_make(0, 1, 0), IK_R(0.5));
    e[3].blend = IK_R(0.5);
}

static const ik_real tree_q0[TREE_DOF] = { IK_R(0.1), 0, IK_R(0.2), 0, IK_R(0.3), IK_R(0.1), 0 };

// Every joint value within its limits (the ball's by its cone and twist).
static int tree_within_limits(const robust_tree *t, const ik_real *q)
{
    ik_quat ball = ik_quat_from_expmap(ik_vec3_make(q[1], q[2], q[3]));
    return reals_finite(q, TREE_DOF) && ik_ball_limit_contains(&t->limit, ball) && q[4] >= -2 &&
           q[4] <= 2 && q[5] >= 0 && q[5] <= IK_R(0.5);
}

// bad_opts: 0 defaults, -1 NULL options, 1.. one field out of range; JACOBIAN_BAD_OPTS + 1: a
// rest pose with an Inf, + 2: a rest pose inside the scratch s.
static ik_result tree_solve(const robust_tree *t, const ik_effector *e, int count, int bad_opts,
                            ik_real *q, void *s, size_t n, ik_solve_info *info,
                            ik_effector_info *out)
{
    static const ik_real bad_rest[TREE_DOF] = { 0, 0, 0, 0, 0, 0, (ik_real)HUGE_VAL };
    ik_jacobian_opts o = jacobian_opts_bad(bad_opts, bad_rest, s);
    return ik_skeleton_solve(&t->skeleton, e, count, bad_opts < 0 ? NULL : &o, q, s, n, info, out);
}

// The effectors' infos of an IK_OK solve: finite, non-negative, met as the tolerances say.
static int tree_infos_valid(const ik_effector_info *out, int count)
{
    const ik_jacobian_opts o = ik_default_jacobian_opts();
    int k;
    for (k = 0; k < count; k++)
        if (!reals_finite(&out[k].position_error, 1) || !reals_finite(&out[k].rotation_error, 1) ||
            out[k].position_error < 0 || out[k].rotation_error < 0 ||
            out[k].met != (out[k].position_error <= o.tolerance &&
                           out[k].rotation_error <= o.rotation_tolerance))
            return 0;
    return 1;
}

// An effector made bad in one field (case k of EFFECTOR_BAD_CASES); e is a copy of the tree's.
static void effector_bad(ik_effector *e, int k, int joint_count)
{
    switch (k) {
    case 0: e->joint = -1; break;
    case 1: e->joint = joint_count; break;
    case 2: e->kind = (ik_effector_kind)5; break;
    case 3: e->kind = (ik_effector_kind)-1; break;
    case 4: e->offset.pos.x = bad_real(0); break;
    case 5: e->offset.pos.y = bad_real(3); break;
    case 6: e->offset.rot = ik_quat_make(0, 0, 0, 2); break; // not unit
    case 7: e->target.z = bad_real(1); break;
    case 8: e->target.x = bad_real(3); break;
    case 9: e->kind = IK_EFFECTOR_AIM, e->axis = ik_vec3_make(0, 0, 2); break; // not unit
    case 10: e->kind = IK_EFFECTOR_FREE_AXIS, e->axis = ik_vec3_zero(); break;
    case 11: e->kind = IK_EFFECTOR_DIRECTION, e->target = ik_vec3_zero(); break;
    case 12: e->kind = IK_EFFECTOR_POSE, e->target_rot = ik_quat_make(0, 0, 0, 0); break;
    case 13: e->kind = IK_EFFECTOR_FREE_AXIS, e->target_rot.y = bad_real(0); break;
    case 14: e->kind = IK_EFFECTOR_POSE, e->target_rot.w = bad_real(2); break;
    case 15: e->position_weight = -1; break;
    case 16: e->position_weight = bad_real(0); break;
    case 17: e->rotation_weight = bad_real(1); break;
    case 18: e->rotation_weight = -IK_R(0.5); break;
    case 19: e->blend = -IK_R(0.1); break;
    case 20: e->blend = IK_R(1.1); break;
    case 21: e->blend = bad_real(0); break; // (NaN, tested on the bits: -ffast-math too)
    case 22: e->priority = 2; break;
    default: e->priority = -1; break;
    }
}
#define EFFECTOR_BAD_CASES 24

// NULLs, counts, bad parents, bad values in q and in every effector field, bad options and too
// small scratch: each its error code, q, info and the effectors' infos untouched.
static void robust_skeleton_refused(const robust_tree *t, size_t need)
{
    robust_tree b;
    ik_real q[TREE_DOF], bq[TREE_DOF];
    ik_solve_info info;
    ik_effector_info out[TREE_EFFECTORS];
    ik_effector be[TREE_EFFECTORS];
    const ik_effector *e = t->effectors;
    int k, i;
    memcpy(q, tree_q0, sizeof q);
    memset(&info, FILL, sizeof info);
    memset(out, FILL, sizeof out);
    CHECK(ik_skeleton_solve(NULL, e, 4, NULL, q, scratch, need, &info, out) == IK_ERR_NULL_ARG);
    CHECK(tree_solve(t, NULL, 4, 0, q, scratch, need, &info, out) == IK_ERR_NULL_ARG);
    CHECK(tree_solve(t, e, 4, 0, NULL, scratch, need, &info, out) == IK_ERR_NULL_ARG);
    CHECK(tree_solve(t, e, 4, 0, q, NULL, need, &info, out) == IK_ERR_NULL_ARG);
    b = *t;
    b.skeleton.joints = NULL;
    CHECK(tree_solve(&b, e, 4, 0, q, scratch, need, &info, out) == IK_ERR_NULL_ARG);
    // counts: joints 0 and IK_MAX_JOINTS + 1, effectors 0 and IK_MAX_EFFECTORS + 1
    b = *t;
    b.skeleton.joint_count = 0;
    CHECK(tree_solve(&b, e, 4, 0, q, scratch, need, &info, out) == IK_ERR_BAD_ARG);
    b.skeleton.joint_count = IK_MAX_JOINTS + 1;
    CHECK(tree_solve(&b, e, 4, 0, q, scratch, need, &info, out) == IK_ERR_BAD_ARG);
    CHECK(tree_solve(t, e, 0, 0, q, scratch, need, &info, out) == IK_ERR_BAD_ARG);
    CHECK(tree_solve(t, e, IK_MAX_EFFECTORS + 1, 0, q, scratch, need, &info, out) ==
          IK_ERR_BAD_ARG);
    // a parent after its child, itself, below -1: refused everywhere
    for (k = 0; k < 3; k++) {
        b = *t;
        b.parents[2] = k == 0 ? 3 : k == 1 ? 2 : -2;
        b.skeleton = ik_skeleton_make(b.joints, b.parents, TREE_JOINTS);
        CHECK(ik_skeleton_validate(&b.skeleton) == IK_ERR_BAD_ARG);
        CHECK(ik_skeleton_dof(&b.skeleton) == -1 && ik_skeleton_state_index(&b.skeleton, 1) == -1);
        CHECK(ik_skeleton_scratch_size(&b.skeleton, e, 4) == 0);
        CHECK(tree_solve(&b, e, 4, 0, q, scratch, need, &info, out) == IK_ERR_BAD_ARG);
    }
    // bad values in q and in each effector's fields
    for (k = 0; k < BAD_REALS; k++)
        for (i = 0; i < TREE_DOF; i++) {
            memcpy(bq, q, sizeof q);
            bq[i] = bad_real(k);
            CHECK(tree_solve(t, e, 4, 0, bq, scratch, need, &info, out) == IK_ERR_BAD_ARG);
        }
    for (k = 0; k < EFFECTOR_BAD_CASES; k++)
        for (i = 0; i < TREE_EFFECTORS; i++) {
            memcpy(be, e, sizeof be);
            effector_bad(&be[i], k, TREE_JOINTS);
            CHECK(tree_solve(t, be, 4, 0, q, scratch, need, &info, out) == IK_ERR_BAD_ARG);
        }
    // options out of range; a rest pose with an Inf
    for (k = 1; k <= JACOBIAN_BAD_OPTS; k++)
        CHECK(tree_solve(t, e, 4, k, q, scratch, need, &info, out) == IK_ERR_BAD_OPTS);
    CHECK(tree_solve(t, e, 4, JACOBIAN_BAD_OPTS + 1, q, scratch, need, &info, out) ==
          IK_ERR_BAD_ARG);
    // scratch: 0 bytes, more than a real short (aligned and not)
    CHECK(tree_solve(t, e, 4, 0, q, scratch_at(0), 0, &info, out) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(tree_solve(t, e, 4, 0, q, scratch_at(0), need - sizeof(ik_real) - 1, &info, out) ==
          IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(tree_solve(t, e, 4, 0, q, scratch_at(0) + 3, need - sizeof(ik_real) - 4, &info, out) ==
          IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(tree_solve(t, e, 4, 0, q, scratch_at(0), need - 1, &info, out) ==
          IK_ERR_SCRATCH_TOO_SMALL); // (one byte short: as the size query counts)
    CHECK(memcmp(q, tree_q0, sizeof q) == 0 && untouched(&info, sizeof info) &&
          untouched(out, sizeof out));
}

// q (its first value on the scratch's last real, on its first), info, the effectors' infos, the
// effectors, the parents, the joints, the rest pose inside the scratch (need bytes at
// scratch_at(0)): IK_ERR_BAD_ARG, each of them untouched; q just past the scratch: IK_OK.
static void robust_skeleton_overlap(const robust_tree *t, size_t need)
{
    unsigned char *base = scratch_at(0), *past = scratch_at(need);
    ik_real q[TREE_DOF], *in;
    ik_solve_info info, *pinfo;
    ik_effector_info out[TREE_EFFECTORS], *pout;
    robust_tree b;
    size_t off;
    CHECK(need % sizeof(ik_real) == 0 && need + 2048 <= sizeof scratch - 16);
    memset(out, FILL, sizeof out);
    for (off = 0; off < 3; off++) {
        in = off == 0 ? (ik_real *)(void *)past - 1 : (ik_real *)(void *)(off == 1 ? base : past);
        memcpy(in, tree_q0, sizeof tree_q0);
        memset(&info, FILL, sizeof info);
        CHECK(tree_solve(t, t->effectors, 4, 0, in, base, need, &info, out) ==
              (off == 2 ? IK_OK : IK_ERR_BAD_ARG));
        CHECK(off == 2 || (memcmp(in, tree_q0, sizeof tree_q0) == 0 &&
                           untouched(&info, sizeof info) && untouched(out, sizeof out)));
    }
    memcpy(q, tree_q0, sizeof q);
    memset(&info, FILL, sizeof info);
    pinfo = (ik_solve_info *)(void *)scratch_at(need - 16);
    memset(pinfo, FILL, sizeof *pinfo);
    CHECK(tree_solve(t, t->effectors, 4, 0, q, base, need, pinfo, NULL) == IK_ERR_BAD_ARG);
    CHECK(untouched(pinfo, sizeof *pinfo));
    pout = (ik_effector_info *)(void *)scratch_at(need - 16);
    memset(pout, FILL, sizeof out);
    CHECK(tree_solve(t, t->effectors, 4, 0, q, base, need, &info, pout) == IK_ERR_BAD_ARG);
    CHECK(untouched(pout, sizeof out));
    b = *t; // the effectors, the parents, the joints in the scratch
    memcpy(scratch_at(64), t->effectors, sizeof t->effectors);
    CHECK(tree_solve(t, (ik_effector *)(void *)scratch_at(64), 4, 0, q, base, need, &info, NULL) ==
          IK_ERR_BAD_ARG);
    CHECK(memcmp(scratch_at(64), t->effectors, sizeof t->effectors) == 0);
    memcpy(scratch_at(64), t->parents, sizeof t->parents);
    b.skeleton.parents = (const int *)(void *)scratch_at(64);
    CHECK(tree_solve(&b, b.effectors, 4, 0, q, base, need, &info, NULL) == IK_ERR_BAD_ARG);
    CHECK(memcmp(scratch_at(64), t->parents, sizeof t->parents) == 0);
    memcpy(scratch_at(64), t->joints, sizeof t->joints);
    b.skeleton =
        ik_skeleton_make((const ik_joint *)(void *)scratch_at(64), t->parents, TREE_JOINTS);
    CHECK(tree_solve(&b, b.effectors, 4, 0, q, base, need, &info, NULL) == IK_ERR_BAD_ARG);
    CHECK(memcmp(scratch_at(64), t->joints, sizeof t->joints) == 0);
    memcpy(scratch_at(64), &t->skeleton, sizeof t->skeleton); // (the skeleton struct itself)
    CHECK(ik_skeleton_solve((const ik_skeleton *)(void *)scratch_at(64), t->effectors, 4, NULL, q,
                            base, need, &info, NULL) == IK_ERR_BAD_ARG);
    CHECK(memcmp(scratch_at(64), &t->skeleton, sizeof t->skeleton) == 0);
    memset(base, 0, 8 * sizeof(ik_real)); // (the rest pose: zeros two reals into the scratch)
    CHECK(tree_solve(t, t->effectors, 4, JACOBIAN_BAD_OPTS + 2, q, base, need, &info, NULL) ==
          IK_ERR_BAD_ARG);
    CHECK(memcmp(q, tree_q0, sizeof q) == 0 && untouched(&info, sizeof info));
}

// Valid but awkward: NULL options, info and infos, misaligned scratch, an unreachable target,
// coincident joints, a start outside the limits, extreme values and every value at
// IK_MAX_MAGNITUDE, a huge target rotation: IK_OK (or IK_ERR_NUMERIC with q untouched where a
// step would carry an unlimited joint past the maximum), finite, within the limits.
static void robust_skeleton_awkward(const robust_tree *t, size_t need)
{
    robust_tree b;
    ik_real q[TREE_DOF], q1[TREE_DOF];
    ik_solve_info info;
    ik_effector_info out[TREE_EFFECTORS];
    ik_result r;
    int k, i;
    memcpy(q, tree_q0, sizeof q);
    CHECK(tree_solve(t, t->effectors, 4, -1, q, scratch + 5, need, NULL, NULL) == IK_OK);
    CHECK(tree_within_limits(t, q));
    b = *t; // unreachable
    b.effectors[0].target = ik_vec3_make(100, 0, 0);
    memcpy(q, tree_q0, sizeof q);
    CHECK(tree_solve(&b, b.effectors, 4, 0, q, scratch, need, &info, out) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE && tree_within_limits(t, q));
    CHECK(tree_infos_valid(out, 4) && !out[0].met);
    b = *t; // coincident joints
    for (k = 0; k < TREE_JOINTS; k++)
        b.joints[k].origin.pos = ik_vec3_zero();
    memcpy(q, tree_q0, sizeof q);
    CHECK(tree_solve(&b, b.effectors, 4, 0, q, scratch, need, &info, out) == IK_OK);
    CHECK(tree_within_limits(t, q) && tree_infos_valid(out, 4));
    CHECK(info.status >= IK_STATUS_CONVERGED && info.status <= IK_STATUS_LIMITED);
    // a start outside every limit: the hinge, the slider, the ball's cone
    memcpy(q, tree_q0, sizeof q);
    q[4] = 5, q[5] = -3, q[1] = IK_R(2.5);
    CHECK(tree_solve(t, t->effectors, 4, 0, q, scratch, need, &info, out) == IK_OK);
    CHECK(tree_within_limits(t, q) && tree_infos_valid(out, 4));
    // extreme values in q, the targets and the offsets (IK_MAX_MAGNITUDE: all of them)
    for (k = 0; k < EXTREME_REALS; k++) {
        b = *t;
        for (i = 0; i < TREE_DOF; i++)
            q[i] = q1[i] = extreme_real(k);
        for (i = 0; i < TREE_EFFECTORS; i++) {
            b.effectors[i].target = ik_vec3_make(extreme_real(k), 0, extreme_real(k));
            b.effectors[i].offset.pos = ik_vec3_make(0, extreme_real(k), 0);
            if (k == EXTREME_REALS - 1 && sizeof(ik_real) == sizeof(float)) // (docs/robustness.md,
                b.effectors[i].offset.pos = ik_vec3_zero(); // "Known limits": FE_OVERFLOW)
        }
        b.effectors[2].target.y = 1; // (a direction: not zero)
        r = tree_solve(&b, b.effectors, 4, 0, q, scratch, need, &info, out);
        CHECK(r == IK_OK ||
              (k == EXTREME_REALS - 1 && r == IK_ERR_NUMERIC && !memcmp(q, q1, sizeof q)));
        CHECK(r != IK_OK || (tree_within_limits(t, q) && tree_infos_valid(out, 4)));
    }
    b = *t; // a huge target rotation: normalized
    b.effectors[3].target_rot = ik_quat_make(0, 0, 0, IK_MAX_MAGNITUDE);
    memcpy(q, tree_q0, sizeof q);
    CHECK(tree_solve(&b, b.effectors, 4, 0, q, scratch, need, &info, out) == IK_OK);
    CHECK(tree_within_limits(t, q) && tree_infos_valid(out, 4));
}

// ik_skeleton_fk and ik_skeleton_jacobian: NULLs, a bad skeleton, q, joint or offset, an output
// overlapping q: their codes, outputs untouched; extreme q: finite, unit frames.
static void robust_skeleton_kinematics(const robust_tree *t)
{
    static ik_real jac[6 * TREE_DOF + TREE_DOF];
    ik_xform frames[TREE_JOINTS + 1];
    ik_real q[TREE_DOF], bq[TREE_DOF];
    const ik_skeleton *s = &t->skeleton;
    const ik_xform id = ik_xform_identity();
    ik_xform bad_offset = id;
    robust_tree b = *t;
    int k, i;
    memcpy(q, tree_q0, sizeof q);
    memset(frames, FILL, sizeof frames);
    memset(jac, FILL, sizeof jac);
    b.parents[3] = 4; // (after its child)
    b.skeleton = ik_skeleton_make(b.joints, b.parents, TREE_JOINTS);
    CHECK(ik_skeleton_fk(NULL, q, frames) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_fk(s, NULL, frames) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_fk(s, q, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_fk(&b.skeleton, q, frames) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_jacobian(NULL, q, 3, id, jac, frames) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_jacobian(s, NULL, 3, id, jac, frames) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_jacobian(s, q, 3, id, NULL, frames) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_jacobian(s, q, 3, id, jac, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_skeleton_jacobian(&b.skeleton, q, 3, id, jac, frames) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_jacobian(s, q, -1, id, jac, frames) == IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_jacobian(s, q, TREE_JOINTS, id, jac, frames) == IK_ERR_BAD_ARG);
    for (k = 0; k < BAD_REALS; k++) {
        bad_offset.pos.y = bad_real(k);
        CHECK(ik_skeleton_jacobian(s, q, 3, bad_offset, jac, frames) == IK_ERR_BAD_ARG);
        for (i = 0; i < TREE_DOF; i++) {
            memcpy(bq, q, sizeof q);
            bq[i] = bad_real(k);
            CHECK(ik_skeleton_fk(s, bq, frames) == IK_ERR_BAD_ARG);
            CHECK(ik_skeleton_jacobian(s, bq, 3, id, jac, frames) == IK_ERR_BAD_ARG);
        }
    }
    bad_offset = ik_xform_translation(ik_vec3_zero());
    bad_offset.rot = ik_quat_make(0, 0, 0, 0);
    CHECK(ik_skeleton_jacobian(s, q, 3, bad_offset, jac, frames) == IK_ERR_BAD_ARG);
    CHECK(untouched(frames, sizeof frames) && untouched(jac, sizeof jac));
    // an output overlapping q: q on the frames' last real, the Jacobian's last
    memcpy((ik_real *)(void *)frames + 7 * TREE_JOINTS - 1, q, sizeof q);
    CHECK(ik_skeleton_fk(s, (ik_real *)(void *)frames + 7 * TREE_JOINTS - 1, frames) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_skeleton_jacobian(s, (ik_real *)(void *)frames + 7 * TREE_JOINTS - 1, 3, id, jac,
                               frames) == IK_ERR_BAD_ARG);
    CHECK(memcmp((ik_real *)(void *)frames + 7 * TREE_JOINTS - 1, q, sizeof q) == 0);
    memset(frames, FILL, sizeof frames);
    memcpy(jac + 6 * TREE_DOF - 1, q, sizeof q);
    CHECK(ik_skeleton_jacobian(s, jac + 6 * TREE_DOF - 1, 3, id, jac, frames) == IK_ERR_BAD_ARG);
    CHECK(memcmp(jac + 6 * TREE_DOF - 1, q, sizeof q) == 0 && untouched(frames, sizeof frames));
    for (k = 0; k < EXTREME_REALS; k++) {
        for (i = 0; i < TREE_DOF; i++)
            bq[i] = extreme_real(k);
        CHECK(ik_skeleton_fk(s, bq, frames) == IK_OK);
        for (i = 0; i < TREE_JOINTS; i++)
            CHECK(reals_finite(&frames[i].pos.x, 3) && quat_unit(frames[i].rot));
        CHECK(ik_skeleton_jacobian(s, bq, 5, id, jac, frames) == IK_OK);
        CHECK(reals_finite(jac, 6 * TREE_DOF));
    }
}

static void test_robust_skeleton(void)
{
    robust_tree t;
    size_t need;
    ik_real q[TREE_DOF];
    ik_effector_info out[TREE_EFFECTORS];
    ik_solve_info info;
    robust_tree_make(&t);
    need = ik_skeleton_scratch_size(&t.skeleton, t.effectors, 4);
    CHECK(need > 0 && need + 4096 <= sizeof scratch);
    CHECK(ik_skeleton_scratch_size(NULL, t.effectors, 4) == 0);
    CHECK(ik_skeleton_scratch_size(&t.skeleton, NULL, 4) == 0);
    CHECK(ik_skeleton_scratch_size(&t.skeleton, t.effectors, 0) == 0);
    CHECK(ik_skeleton_scratch_size(&t.skeleton, t.effectors, IK_MAX_EFFECTORS + 1) == 0);
    memcpy(q, tree_q0, sizeof q); // the tree solves as it is
    CHECK(tree_solve(&t, t.effectors, 4, 0, q, scratch, need, &info, out) == IK_OK);
    CHECK(tree_within_limits(&t, q) && tree_infos_valid(out, 4));
    robust_skeleton_refused(&t, need);
    robust_skeleton_overlap(&t, need);
    robust_skeleton_awkward(&t, need);
    robust_skeleton_kinematics(&t);
}

static void test_robust_arm(void)
{
    robust_solver(arm_call, ik_arm_scratch_size, ARM_BAD_OPTS, "arm");
    {
        // a bad chain has no scratch size; the solver's checks come before the scratch's
        ik_joint j[4];
        ik_chain c = solver_chain(j);
        j[1].origin.pos.x = (ik_real)HUGE_VAL;
        CHECK(ik_arm_scratch_size(&c) == 0 && ik_arm_scratch_size(NULL) == 0);
        CHECK(ik_jacobian_scratch_size(&c) == 0 && ik_ccd_scratch_size(&c) == 0);
    }
}

// An unlimited prismatic joint gives the chain an infinite reach, which the solvers measure their
// scales by: every solver, position and pose targets, must return IK_OK with a finite q and
// finite errors. (Under -ffast-math the old x - x == x - x finiteness test was folded to true:
// CCD took the infinite reach as its size and returned IK_ERR_NUMERIC, the arm solver reported
// a NaN rotation error; found by fuzzing with -ffast-math, in the corpus as
// regression-fast-math-*.)
static void test_robust_unlimited_reach(void)
{
    ik_joint j[3];
    ik_chain c;
    ik_target t[2];
    ik_solve_info info;
    int k, s;
    j[0] = ik_joint_fixed(ik_xform_translation(ik_vec3_make(IK_R(0.3), IK_R(-0.2), IK_R(0.1))));
    j[1] = ik_joint_fixed(ik_xform_make(ik_quat_from_axis_angle(ik_vec3_make(1, 2, 3), 1),
                                        ik_vec3_make(0, IK_R(0.4), 0)));
    j[2] = ik_joint_prismatic(ik_xform_translation(ik_vec3_make(IK_R(0.1), 0, IK_R(0.2))),
                              ik_vec3_make(IK_R(0.632719), IK_R(-0.538078), IK_R(-0.556902)));
    c = ik_chain_make(j, 3, ik_xform_translation(ik_vec3_make(0, IK_R(0.2), 0)));
    CHECK(j[2].lo == -IK_INFINITY && j[2].hi == IK_INFINITY);
    t[0] = ik_target_position(ik_vec3_make(IK_R(1.18237), IK_R(-1.69861), IK_R(1.96851)));
    t[1] = ik_target_pose(ik_xform_make(
        ik_quat_make(IK_R(0.545353), IK_R(-0.553095), IK_R(0.606735), IK_R(-0.168963)),
        ik_vec3_make(IK_R(-1.84692), IK_R(1.38916), IK_R(1.86584))));
    for (k = 0; k < 2; k++)
        for (s = 0; s < 3; s++) {
            ik_real q[1] = { IK_R(0.5) };
            ik_result r =
                s == 0   ? ik_ccd_solve(&c, &t[k], NULL, q, scratch, sizeof scratch, &info)
                : s == 1 ? ik_jacobian_solve(&c, &t[k], NULL, q, scratch, sizeof scratch, &info)
                         : ik_arm_solve(&c, &t[k], NULL, q, scratch, sizeof scratch, &info);
            CHECK(r == IK_OK && reals_finite(q, 1));
            CHECK(reals_finite(&info.position_error, 1) && reals_finite(&info.rotation_error, 1));
        }
}

// ---- analytic limb -----------------------------------------------------------------------------

static ik_limb robust_limb(void)
{
    ik_limb l;
    l.base = ik_xform_identity();
    l.upper_dir = ik_vec3_make(0, -1, 0);
    l.upper_length = IK_R(0.3);
    l.lower_dir = ik_vec3_make(0, -1, 0);
    l.lower_length = IK_R(0.25);
    l.hinge_axis = ik_vec3_make(1, 0, 0);
    l.swivel_ref = ik_vec3_make(0, 0, 1);
    l.limits = NULL;
    return l;
}

// The wrist position of q by forward kinematics of ik_limb_chain().
static ik_vec3 limb_wrist(const ik_limb *l, const ik_real *q)
{
    ik_joint j[3];
    ik_xform tip, eff = ik_xform_identity();
    ik_chain c;
    CHECK(ik_limb_chain(l, j, &tip) == IK_OK);
    c = ik_chain_make(j, 3, tip);
    CHECK(ik_chain_fk(&c, q, NULL, &eff) == IK_OK);
    return eff.pos;
}

static void test_robust_limb(void)
{
    ik_limb l = robust_limb(), bl;
    ik_limb_target t, bt;
    ik_limb_opts o = ik_default_limb_opts(), bo;
    ik_limb_pose pose;
    ik_solve_info info;
    ik_real q[7] = { 0, 0, 0, IK_R(0.3), 0, 0, 0 }, q0[7], bq[7], sw;
    ik_joint jo[3];
    ik_xform tip;
    int k, f;
    memcpy(q0, q, sizeof q);
    t.pos = ik_vec3_make(IK_R(0.1), IK_R(-0.4), IK_R(0.1));
    t.rot = ik_quat_identity();
    t.use_rotation = false;
    t.use_swivel = false;
    t.pole = ik_vec3_make(0, 0, 1);
    t.swivel = 0;
    memset(&pose, FILL, sizeof pose);
    memset(&info, FILL, sizeof info);
    memset(&sw, FILL, sizeof sw);
    memset(jo, FILL, sizeof jo);
    memset(&tip, FILL, sizeof tip);
    CHECK(ik_limb_solve(NULL, &t, &o, q, &pose, &info) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_solve(&l, NULL, &o, q, &pose, &info) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_solve(&l, &t, &o, NULL, NULL, &info) == IK_ERR_NULL_ARG); // no q, no pose
    CHECK(ik_limb_swivel(NULL, q, &sw) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_swivel(&l, NULL, &sw) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_swivel(&l, q, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_chain(NULL, jo, &tip) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_chain(&l, NULL, &tip) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_chain(&l, jo, NULL) == IK_ERR_NULL_ARG);
    // the limb: one bad field at a time
    for (f = 0; f < 12; f++)
        for (k = 0; k < BAD_REALS; k++) {
            bl = l;
            switch (f) {
            case 0: bl.base.pos.x = bad_real(k); break;
            case 1: bl.base.rot.y = bad_real(k); break;
            case 2: bl.upper_dir.z = bad_real(k); break;
            case 3: bl.lower_dir.x = bad_real(k); break;
            case 4: bl.hinge_axis.y = bad_real(k); break;
            case 5: bl.swivel_ref.x = bad_real(k); break;
            case 6: bl.upper_length = bad_real(k); break;
            case 7: bl.lower_length = -bad_real(k); break;
            case 8: bl.upper_dir = ik_vec3_zero(); break;
            case 9: bl.hinge_axis = ik_vec3_make(IK__REAL_MIN / 8, 0, 0); break; // no direction
            case 10: bl.hinge_axis = bl.upper_dir; break;                        // along a bone
            default: bl.base.rot = ik_quat_make(0, 0, 0, 0); break;
            }
            if (f == 1 && k == 3)
                continue; // a huge base rotation component is normalized: fine
            CHECK(ik_limb_solve(&bl, &t, &o, q, &pose, &info) == IK_ERR_BAD_ARG);
            CHECK(ik_limb_swivel(&bl, q, &sw) == IK_ERR_BAD_ARG);
            CHECK(ik_limb_chain(&bl, jo, &tip) == IK_ERR_BAD_ARG);
        }
    // the target and q
    for (f = 0; f < 5; f++)
        for (k = 0; k < BAD_REALS; k++) {
            bt = t;
            switch (f) {
            case 0: bt.pos.y = bad_real(k); break;
            case 1: bt.pole.z = bad_real(k); break;
            case 2: bt.swivel = bad_real(k); break;
            case 3:
                bt.use_rotation = true;
                bt.rot.x = k == 3 ? 0 : bad_real(k);
                if (k == 3)
                    bt.rot.w = 0; // zero
                break;
            default: break;
            }
            memcpy(bq, q, sizeof q);
            if (f == 4)
                bq[k] = bad_real(k);
            CHECK(ik_limb_solve(&l, &bt, &o, bq, &pose, &info) == IK_ERR_BAD_ARG);
            if (f == 4)
                CHECK(ik_limb_swivel(&l, bq, &sw) == IK_ERR_BAD_ARG);
        }
    // options
    for (f = 0; f < 6; f++) {
        bo = o;
        switch (f) {
        case 0: memset(&bo, 0, sizeof bo); break;
        case 1: bo.softness = -1; break;
        case 2: bo.softness = bad_real(0); break;
        case 3: bo.pole_band = 0; break;
        case 4: bo.pole_band = 1; break;
        default: bo._valid ^= 1; break;
        }
        CHECK(ik_limb_solve(&l, &t, &bo, q, &pose, &info) == IK_ERR_BAD_OPTS);
    }
    CHECK(memcmp(q, q0, sizeof q) == 0 && untouched(&pose, sizeof pose));
    CHECK(untouched(&info, sizeof info) && untouched(&sw, sizeof sw));
    CHECK(untouched(jo, sizeof jo) && untouched(&tip, sizeof tip));

    // valid but awkward: unreachable far and near, target at the shoulder, pole on the line,
    // zero-length bones, non-unit directions, NULL options/pose/info
    {
        static const ik_real tx[5][3] = {
            { 0, -5, 0 }, { 0, IK_R(-0.01), 0 }, { 0, 0, 0 }, { 0, IK_R(-0.4), 0 }, { 3, 3, 3 }
        };
        for (k = 0; k < 5; k++) {
            bt = t;
            bt.pos = ik_vec3_make(tx[k][0], tx[k][1], tx[k][2]);
            bt.pole = k == 3 ? ik_vec3_make(0, -1, 0) : t.pole; // on the line
            memcpy(bq, q0, sizeof q);
            CHECK(ik_limb_solve(&l, &bt, NULL, bq, NULL, NULL) == IK_OK && reals_finite(bq, 7));
            memcpy(bq, q0, sizeof q);
            CHECK(ik_limb_solve(&l, &bt, &o, bq, &pose, &info) == IK_OK && reals_finite(bq, 7));
            CHECK(info.status ==
                      (k == 0 || k == 1 || k == 4 ? IK_STATUS_UNREACHABLE : IK_STATUS_CONVERGED) ||
                  k == 2);
            CHECK(ik_limb_swivel(&l, bq, &sw) == IK_OK && finite_d((double)sw));
        }
        for (k = 0; k < 3; k++) {
            bl = l;
            if (k != 1)
                bl.upper_length = 0;
            if (k != 0)
                bl.lower_length = 0;
            bl.upper_dir = ik_vec3_make(0, -7, 0); // non-unit: normalized
            memcpy(bq, q0, sizeof q);
            CHECK(ik_limb_solve(&bl, &t, &o, bq, &pose, &info) == IK_OK && reals_finite(bq, 7));
            CHECK(ik_limb_swivel(&bl, bq, &sw) == IK_OK && finite_d((double)sw));
        }
    }
}

// Rotations of every size: any finite quaternion whose largest component is a normal number is
// normalized, also when its squared length underflows (components of 1e-170 in double, 1e-30
// in float: refused before) or overflows; a zero or subnormal one is refused. The unit
// rotation R = (1, -1, 1, 1) / 2 normalizes exactly, and so does R times a power of two: every
// solver answers R * 2^k (tiny, huge) to the bit as it answers R, and R times a subnormal
// scale with IK_ERR_BAD_ARG, outputs untouched. Target rotations of the chain solvers; the
// limb's target rotation, base rotation and current pose (q NULL).
// The joints a and b, n of them, have the same type and values (not comparing the padding after
// the type, which C leaves unspecified).
static int joints_same(const ik_joint *a, const ik_joint *b, int n)
{
    const size_t from = offsetof(ik_joint, origin);
    int i;
    for (i = 0; i < n; i++)
        if (a[i].type != b[i].type ||
            memcmp((const char *)&a[i] + from, (const char *)&b[i] + from, sizeof *a - from))
            return 0;
    return 1;
}

static ik_quat rotation_sized(int size)
{
    // size 0: R; 1: squares underflow; 2: squares overflow; 3: components subnormal
    static const int e_float[4] = { 0, -100, 100, -130 }, e_double[4] = { 0, -565, 500, -1030 };
    ik_real f =
        (ik_real)ldexp(1, sizeof(ik_real) == sizeof(float) ? e_float[size] : e_double[size]);
    return ik_quat_make(f / 2, -f / 2, f / 2, f / 2);
}

static void test_robust_rotation_sizes(void)
{
    static const solve_fn solvers[3] = { ccd_call, jacobian_call, arm_call };
    static const ik_real qg[SOLVER_DOF] = { IK_R(0.4), IK_R(0.2), IK_R(-0.3),
                                            IK_R(0.1), IK_R(0.5), IK_R(0.2) };
    ik_joint j[4];
    ik_chain c = solver_chain(j);
    ik_xform goal;
    ik_limb l = robust_limb(), bl;
    ik_limb_target lt;
    ik_limb_pose pose, pose_in, ref_pose, pose0 = { { 0, 0, 0, 1 }, IK_R(0.3), { 0, 0, 0, 1 } };
    ik_solve_info info;
    ik_real q[SOLVER_DOF], ref[SOLVER_DOF], lq[7], lq0[7], lref[7];
    ik_joint jo[3], jref[3];
    ik_xform tip, tref;
    int n, size;
    CHECK(ik_chain_fk(&c, qg, NULL, &goal) == IK_OK);
    for (n = 0; n < 3; n++) {
        for (size = 0; size < 4; size++) {
            ik_target t = ik_target_pose(goal);
            ik_result r;
            t.rot = rotation_sized(size);
            memset(q, 0, sizeof q);
            memset(&info, FILL, sizeof info);
            r = solvers[n](&c, &t, 0, q, scratch, sizeof scratch, &info);
            CHECK(r == (size == 3 ? IK_ERR_BAD_ARG : IK_OK));
            if (size == 0)
                memcpy(ref, q, sizeof q);
            CHECK(size == 3 ? untouched(&info, sizeof info) : memcmp(q, ref, sizeof q) == 0);
        }
    }
    lt.pos = ik_vec3_make(IK_R(0.1), IK_R(-0.4), IK_R(0.1));
    lt.use_rotation = true;
    lt.use_swivel = false;
    lt.pole = ik_vec3_make(0, 0, 1);
    lt.swivel = 0;
    for (n = 0; n < 4; n++) {
        for (size = 0; size < 4; size++) {
            ik_result r, want = size == 3 ? IK_ERR_BAD_ARG : IK_OK;
            ik_quat rs = rotation_sized(size);
            bl = l;
            lt.rot = n == 0 ? rs : rotation_sized(0);
            bl.base.rot = n == 1 || n == 2 ? rs : rotation_sized(0);
            pose = pose0;
            if (n == 3)
                pose.shoulder = pose.wrist = rs;
            memset(lq, 0, sizeof lq);
            lq[3] = IK_R(0.3);
            memcpy(lq0, lq, sizeof lq);
            pose_in = pose;
            memset(jo, FILL, sizeof jo);
            memset(&tip, FILL, sizeof tip);
            if (n == 2) { // the limb's chain
                CHECK(ik_limb_chain(&bl, jo, &tip) == want);
                if (size == 0)
                    memcpy(jref, jo, sizeof jo), tref = tip;
                // (-ffast-math regroups the normalization: the same answer within rounding, not
                // to the bit; the bitwise check stands in the IEEE builds)
                CHECK(size == 3 ? untouched(jo, sizeof jo) && untouched(&tip, sizeof tip)
                                : TEST_FAST_MATH || (joints_same(jo, jref, 3) &&
                                                     memcmp(&tip, &tref, sizeof tip) == 0));
                continue;
            }
            r = ik_limb_solve(&bl, &lt, NULL, n == 3 ? NULL : lq, &pose, NULL);
            CHECK(r == want);
            if (size == 0)
                memcpy(lref, lq, sizeof lq), ref_pose = pose;
            if (size == 3) // (ik_limb_pose holds reals only: no padding)
                CHECK(memcmp(lq, lq0, sizeof lq) == 0 && memcmp(&pose, &pose_in, sizeof pose) == 0);
            else // (bitwise, as above, but in the IEEE builds)
                CHECK(TEST_FAST_MATH || (memcmp(lq, lref, sizeof lq) == 0 &&
                                         memcmp(&pose, &ref_pose, sizeof pose) == 0));
        }
    }
}

// Regressions (limb fuzzer): the shoulder frame was not orthonormal when the elbow's side
// vector was rounding noise along the shoulder-wrist line: a pole band below rounding level
// with swivel_ref along the line, and a bone of 1e-30 next to one of 1e12. The wrist must
// still be at the target.
// A softness far beyond a tiny limb's length (found by fuzz:limb: softness / length overflowed
// and the soft reach became NaN): finite, folded or straightened, never NaN.
static void test_robust_limb_soft_tiny(void)
{
    ik_limb l = robust_limb();
    ik_limb_target t;
    ik_limb_opts o = ik_default_limb_opts();
    ik_real q[7] = { 0 };
    ik_solve_info info;
    int k;
    l.upper_length = l.lower_length = IK__REAL_MIN * 2;
    t.rot = ik_quat_identity();
    t.use_rotation = true;
    t.use_swivel = false;
    t.pole = ik_vec3_make(0, 0, 1);
    t.swivel = 0;
    for (k = 0; k < 3; k++) {
        o.softness = k == 0 ? IK_R(0.1) : (k == 1 ? IK_MAX_MAGNITUDE : IK__REAL_MIN);
        t.pos = ik_vec3_make(IK_MAX_MAGNITUDE, IK_MAX_MAGNITUDE, 0);
        CHECK(ik_limb_solve(&l, &t, &o, q, NULL, &info) == IK_OK);
        CHECK(reals_finite(q, 7) && info.status == IK_STATUS_UNREACHABLE);
        CHECK(reals_finite(&info.position_error, 1) && reals_finite(&info.rotation_error, 1));
        t.pos = ik_vec3_make(IK__REAL_MIN, 0, 0);
        CHECK(ik_limb_solve(&l, &t, &o, q, NULL, &info) == IK_OK && reals_finite(q, 7));
    }
}

// A pole exactly on the shoulder-wrist line with pole_band at REAL_MIN (found by fuzz:limb):
// the pole's part across the line is rounding noise, which was taken as the elbow's side; its
// direction is not perpendicular to the line to working precision, and the shoulder rotation
// built on it put the wrist 2.7 off a 6.3-long limb's target while reporting converged. Now a
// part at rounding level is no side (the current side is kept): the wrist is at the target.
static void test_robust_limb_pole_noise(void)
{
    ik_real m = IK__REAL_MIN, pi = IK_PI;
    ik_limb l;
    ik_limb_target t;
    ik_limb_opts o = ik_default_limb_opts();
    ik_real q[7] = { pi, pi, pi, pi, pi, pi, 0 };
    ik_solve_info info;
    l.base = ik_xform_identity();
    l.base.rot = ik_quat_make(m / 2, m / 2, m / 2, 1);
    l.base.pos = ik_vec3_make(m, m, m);
    l.upper_dir = l.lower_dir = ik_vec3_make(m, m, pi);
    l.upper_length = l.lower_length = pi;
    l.hinge_axis = l.swivel_ref = ik_vec3_make(pi, pi, pi);
    l.limits = NULL;
    t.pos = t.pole = ik_vec3_make(pi, pi, pi);
    t.rot = ik_quat_identity();
    t.use_rotation = t.use_swivel = false;
    t.swivel = 0;
    o.pole_band = m;
    CHECK(ik_limb_solve(&l, &t, &o, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_CONVERGED);
    CHECK_NEAR(test_vec3_dist(limb_wrist(&l, q), t.pos), 0, TOL(1e-13, 1e-4));
}

static void test_robust_limb_degenerate_side(void)
{
    ik_limb l;
    ik_limb_target t;
    ik_limb_opts o = ik_default_limb_opts();
    ik_solve_info info;
    ik_real q[7] = { IK_R(-3.15), 0, 0, IK_R(-1e12), IK_R(1e-6), 0, 0 };
    double err;
    l.base = ik_xform_identity();
    l.upper_dir = ik_vec3_make(0, 1, 0);
    l.lower_dir = l.upper_dir;
    l.upper_length = l.lower_length = IK_R(1e-6);
    l.hinge_axis = ik_vec3_make(1, 0, 1);
    l.swivel_ref = ik_vec3_make(1, 1, 1);
    l.limits = NULL;
    t.pos = ik_vec3_make(IK_R(1e-6), IK_R(1e-6), IK_R(1e-6));
    t.rot = ik_quat_identity();
    t.use_rotation = true;
    t.use_swivel = true;
    t.pole = t.pos;
    t.swivel = IK_R(1e-6);
    o.pole_band = IK__REAL_MIN;
    CHECK(ik_limb_solve(&l, &t, &o, q, NULL, &info) == IK_OK);
    err = test_vec3_dist(limb_wrist(&l, q), t.pos);
    CHECK(info.status == IK_STATUS_CONVERGED);
    CHECK_NEAR(err / 2e-6, 0, TOL(1e-9, 1e-4));

    l.base.rot =
        ik_quat_normalize(ik_quat_make(IK_R(0.185), IK_R(0.185), IK_R(0.185), IK_R(-0.947)));
    l.base.pos = ik_vec3_make(IK_MAX_MAGNITUDE, IK_MAX_MAGNITUDE, IK_MAX_MAGNITUDE);
    l.upper_dir = ik_vec3_make(1, 1, 1);
    l.lower_dir = l.upper_dir;
    l.upper_length = IK_MAX_MAGNITUDE;
    l.lower_length = IK_R(1e-30);
    l.hinge_axis = ik_vec3_make(1, 0, -1);
    l.swivel_ref = ik_vec3_make(1, 1, 1);
    t.pos = ik_vec3_make(IK_MAX_MAGNITUDE, 0, IK_MAX_MAGNITUDE);
    t.use_rotation = false;
    t.use_swivel = false;
    t.pole = ik_vec3_make(IK_MAX_MAGNITUDE, IK_R(1e-6), 0);
    memset(q, 0, sizeof q);
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    err = test_vec3_dist(limb_wrist(&l, q), t.pos);
    CHECK_NEAR(err / 1e12, 0, TOL(1e-9, 1e-3));
}

// ---- precision: scale invariance ---------------------------------------------------------------

// The same chain at scales 1e-3, 1, 1e3 (tolerances in model units scaled with it): the error
// relative to the size, and the joint angles, do not depend on the scale. And one chain whose
// bones span 1e-3 to 1e3 keeps its accuracy relative to its length.
static void test_robust_scale(void)
{
    static const double scales[3] = { 1e-3, 1, 1e3 };
    static const double bones[7] = { 0.31, 0.4, 0.27, 0.45, 0.2, 0.33, 0.15 };
    ik_real q_ref[2][7];
    double rel_tol = TOL(1e-9, 2e-4);
    int s, i, solver;
    for (s = 0; s < 3; s++)
        for (solver = 0; solver < 2; solver++) {
            ik_joint j[7];
            ik_chain c;
            ik_real q[7] = { 0 };
            ik_real qt[7] = { IK_R(0.3),  IK_R(-0.5), IK_R(0.4), IK_R(0.8),
                              IK_R(-0.2), IK_R(0.6),  IK_R(0.1) };
            ik_xform goal;
            ik_target t;
            ik_solve_info info;
            ik_result r;
            double len = 0, scale = scales[s];
            for (i = 0; i < 7; i++) {
                ik_vec3 off = ik_vec3_make(0, 0, (ik_real)(i == 0 ? 0 : bones[i - 1] * scale));
                ik_vec3 axis = i % 2 ? ik_vec3_make(0, 1, 0) : ik_vec3_make(0, 0, 1);
                j[i] = ik_joint_revolute(ik_xform_translation(off), axis);
                len += bones[i];
            }
            c = ik_chain_make(j, 7,
                              ik_xform_translation(ik_vec3_make(0, 0, (ik_real)(0.15 * scale))));
            CHECK(ik_chain_fk(&c, qt, NULL, &goal) == IK_OK);
            t = ik_target_position(goal.pos);
            for (i = 0; i < 7; i++)
                q[i] = qt[i] + IK_R(0.05); // a start near the answer: the same path at any scale
            if (solver == 0) {
                ik_jacobian_opts o = ik_default_jacobian_opts();
                o.tolerance = (ik_real)(1e-12 * scale * len);
                o.max_iterations = 200;
                r = ik_jacobian_solve(&c, &t, &o, q, scratch, sizeof scratch, &info);
            } else {
                ik_ccd_opts o = ik_default_ccd_opts();
                o.tolerance = (ik_real)(TOL(1e-10, 1e-5) * scale * len);
                o.max_sweeps = 2000;
                r = ik_ccd_solve(&c, &t, &o, q, scratch, sizeof scratch, &info);
            }
            CHECK(r == IK_OK);
            CHECK_NEAR((double)info.position_error / (scale * len), 0,
                       solver == 0 ? rel_tol : TOL(1e-9, 2e-4));
            if (s == 0)
                memcpy(q_ref[solver], q, sizeof q);
            else // the same answer at every scale (7 joints for 3 task dimensions: redundant;
                // CCD's last joint turns about the line through the effector, which cannot move
                // it: CCD leaves it where it started, rather than turning it by rounding noise)
                for (i = 0; i < 7; i++)
                    CHECK_NEAR(q[i], q_ref[solver][i], TOL(1e-6, 2e-2));
            if (solver == 1) // (it started at qt[6] + 0.05)
                CHECK_NEAR(q[6], qt[6] + IK_R(0.05), 1e-12);
        }
    // bones from 1e-3 to 1e3 in one chain
    for (solver = 0; solver < 2; solver++) {
        ik_joint j[7];
        ik_chain c;
        ik_real q[7] = { 0 }, qt[7] = { IK_R(0.3),  IK_R(-0.5), IK_R(0.4), IK_R(0.8),
                                        IK_R(-0.2), IK_R(0.6),  IK_R(0.1) };
        ik_xform goal;
        ik_target t;
        ik_solve_info info;
        double len = 0;
        for (i = 0; i < 7; i++) {
            double b = pow(10.0, -3 + i); // 1e-3 .. 1e3
            ik_vec3 axis = i % 2 ? ik_vec3_make(0, 1, 0) : ik_vec3_make(1, 0, 0);
            j[i] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, (ik_real)b)), axis);
            len += b;
        }
        c = ik_chain_make(j, 7, ik_xform_translation(ik_vec3_make(0, 0, 1)));
        CHECK(ik_chain_fk(&c, qt, NULL, &goal) == IK_OK);
        t = ik_target_position(goal.pos);
        if (solver == 0) {
            ik_jacobian_opts o = ik_default_jacobian_opts();
            o.tolerance = (ik_real)(TOL(1e-12, 1e-5) * len);
            o.max_iterations = 500;
            CHECK(ik_jacobian_solve(&c, &t, &o, q, scratch, sizeof scratch, &info) == IK_OK);
        } else {
            ik_ccd_opts o = ik_default_ccd_opts();
            o.tolerance = (ik_real)(TOL(1e-10, 1e-5) * len);
            o.max_sweeps = 5000;
            CHECK(ik_ccd_solve(&c, &t, &o, q, scratch, sizeof scratch, &info) == IK_OK);
        }
        CHECK(info.status == IK_STATUS_CONVERGED || solver == 1); // CCD: linear, slow here
        CHECK_NEAR((double)info.position_error / len, 0, TOL(1e-9, 2e-4));
    }
    // the limb at 1e-3 and 1e3, and far below the square root of the smallest normal number
    // (1e-30 float, 1e-200 double: it solves in units of its own length, squares do not
    // underflow): exact to rounding relative to its size
    for (s = 0; s < 4; s += s == 0 ? 2 : 1) { // 1e-3, 1e3, tiny
        ik_limb l = robust_limb();
        ik_limb_target t;
        ik_real q[7] = { 0 };
        ik_solve_info info;
        double scale = s < 3 ? scales[s] : (sizeof(ik_real) == sizeof(float) ? 1e-30 : 1e-200);
        l.upper_length = (ik_real)(0.3 * scale);
        l.lower_length = (ik_real)(0.25 * scale);
        t.pos =
            ik_vec3_make((ik_real)(0.1 * scale), (ik_real)(-0.4 * scale), (ik_real)(0.1 * scale));
        t.rot = ik_quat_from_axis_angle(ik_vec3_make(1, 2, 3), 1);
        t.use_rotation = true;
        t.use_swivel = false;
        t.pole = ik_vec3_make(0, 0, (ik_real)scale);
        t.swivel = 0;
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_CONVERGED);
        // (the distance in units of scale: its square would underflow at 1e-200)
        CHECK_NEAR((double)ik_vec3_length(
                       ik_vec3_scale(ik_vec3_sub(limb_wrist(&l, q), t.pos), (ik_real)(1 / scale))) /
                       0.55,
                   0, TOL(1e-14, 1e-5));
    }
}

void test_robust(void)
{
    RUN(test_robust_strings);
    RUN(test_robust_conversions);
    RUN(test_robust_reparameterize_huge);
    RUN(test_robust_expmap_jacobian_huge);
    RUN(test_robust_quat_from_mat3_huge);
    RUN(test_robust_constructors);
    RUN(test_robust_chain_validate);
    RUN(test_robust_fk_jacobian);
    RUN(test_robust_urdf_dh);
    RUN(test_robust_svd);
    RUN(test_robust_svd_overlap);
    RUN(test_robust_ccd);
    RUN(test_robust_ccd_axis_through_effector);
    RUN(test_robust_ccd_far_chain);
    RUN(test_robust_jacobian);
    RUN(test_robust_arm);
    RUN(test_robust_skeleton);
    RUN(test_robust_unlimited_reach);
    RUN(test_robust_limb);
    RUN(test_robust_limb_degenerate_side);
    RUN(test_robust_limb_soft_tiny);
    RUN(test_robust_rotation_sizes);
    RUN(test_robust_limb_pole_noise);
    RUN(test_robust_scale);
}
