/* Fuzz target: every rotation conversion. The header promises that conversions are total: any
   input (zero, non-unit, NaN, Inf, huge) gives a finite answer, a unit quaternion where one is
   returned, and the identity (or zero vector) for non-finite input. Round trips are checked on
   finite inputs of reasonable size. Plain arithmetic (ik_mat3_mul, ik_xform_mul, ...) is only
   run under the sanitizers: it propagates whatever it is given, as documented. */
#include "fuzz.h"

#ifdef IK_USE_FLOAT
#define FZ_UNIT_TOL IK_R(1e-5)
#define FZ_RT_TOL   1e-3
#else
#define FZ_UNIT_TOL IK_R(1e-12)
#define FZ_RT_TOL   1e-9
#endif

static int quat_unit(ik_quat q)
{
    return ik_quat_is_unit(q, FZ_UNIT_TOL);
}

static int mat3_finite(ik_mat3 m)
{
    int i, k;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            if (!fz_finite(m.m[i][k]))
                return 0;
    return 1;
}

static int quat_is_identity(ik_quat q)
{
    return q.x == 0 && q.y == 0 && q.z == 0 && q.w == 1;
}

// the angle between two rotations given as unit quaternions
static double quat_angle(ik_quat a, ik_quat b)
{
    ik_quat r = ik_quat_mul(ik_quat_conjugate(a), b);
    double x = (double)r.x, y = (double)r.y, z = (double)r.z;
    return 2 * atan2(sqrt(x * x + y * y + z * z), fabs((double)r.w));
}

static double mat3_dist(ik_mat3 a, ik_mat3 b)
{
    double m = 0;
    int i, k;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++) {
            double d = fabs((double)a.m[i][k] - (double)b.m[i][k]);
            m = d > m ? d : m;
        }
    return m;
}

static ik_quat raw_quat(fz *f)
{
    ik_real x = fz_real(f, 1), y = fz_real(f, 1), z = fz_real(f, 1), w = fz_real(f, 1);
    return ik_quat_make(x, y, z, w);
}

static ik_mat3 raw_mat3(fz *f)
{
    ik_mat3 m;
    int i, k;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            m.m[i][k] = fz_real(f, 1);
    return m;
}

static int quat_ok(ik_quat q)
{
    return fz_finite(q.x) && fz_finite(q.y) && fz_finite(q.z) && fz_finite(q.w);
}

static int vec_small(ik_vec3 v, double lim)
{
    return ik_vec3_is_finite(v) && fabs((double)v.x) < lim && fabs((double)v.y) < lim &&
           fabs((double)v.z) < lim;
}

FUZZ_TARGET(rotation)
{
    fz f = fz_begin(data, size);
    uint8_t which = fz_u8(&f);
    int order = fz_u8(&f) % 8; // 6 and 7 are not orders
    ik_vec3 v = fz_vec3(&f, 2), w = fz_vec3(&f, 2);
    ik_quat q = fz_chance(&f, 128) ? raw_quat(&f) : fz_quat(&f, 0);
    ik_quat p = fz_chance(&f, 128) ? raw_quat(&f) : fz_quat(&f, 0);
    ik_real t = fz_real(&f, 1);
    ik_mat3 m = fz_chance(&f, 200) ? ik_quat_to_mat3(q) : raw_mat3(&f);
    int q_fin = quat_ok(q), v_fin = ik_vec3_is_finite(v);
    int q_nz = q_fin && ik_quat_dot(q, q) > 4 * IK__REAL_MIN && ik_quat_is_unit(q, IK_R(1e20));
    (void)which;

    {
        ik_vec3 n = ik_vec3_normalize(v), perp = ik_vec3_any_perpendicular(v);
        FZ_CHECK(ik_vec3_is_finite(n) && ik_vec3_is_finite(perp));
        FZ_CHECK(ik_vec3_length2(n) == 0 || fabs((double)ik_vec3_length(n) - 1) < 1e-5);
        FZ_CHECK(fabs((double)ik_vec3_length(perp) - 1) < 1e-5);
        FZ_CHECK(fabs((double)ik_vec3_dot(perp, n)) < 1e-5);
        if (!v_fin)
            FZ_CHECK(ik_vec3_length2(n) == 0);
    }
    {
        ik_quat n = ik_quat_normalize(q);
        FZ_CHECK(quat_unit(n));
        if (!q_fin)
            FZ_CHECK(quat_is_identity(n));
        (void)ik_quat_is_unit(q, t);
    }
    {
        ik_quat a = ik_quat_from_axis_angle(v, t);
        ik_vec3 axis;
        ik_real ang;
        FZ_CHECK(quat_unit(a));
        memset(&axis, FZ_FILL, sizeof axis);
        ang = ik_quat_to_axis_angle(q, fz_chance(&f, 16) ? NULL : &axis);
        FZ_CHECK(fz_finite(ang) && ang >= 0 && ang <= IK_PI);
        FZ_CHECK(fz_untouched(&axis, sizeof axis) ||
                 (ik_vec3_is_finite(axis) && fabs((double)ik_vec3_length(axis) - 1) < 1e-5));
        if (q_nz && !fz_untouched(&axis, sizeof axis))
            FZ_CHECK(quat_angle(ik_quat_from_axis_angle(axis, ang), ik_quat_normalize(q)) <
                     FZ_RT_TOL * 100);
    }
    {
        ik_quat e = ik_quat_from_expmap(v);
        ik_vec3 lg = ik_quat_to_expmap(q), rp = ik_expmap_reparameterize(v);
        ik_mat3 jac = ik_expmap_jacobian(v);
        FZ_CHECK(quat_unit(e) && ik_vec3_is_finite(lg) && ik_vec3_is_finite(rp));
        FZ_CHECK(mat3_finite(jac));
        FZ_CHECK(ik_vec3_length(lg) <= IK_PI * (1 + 4 * IK_EPSILON));
        FZ_CHECK(ik_vec3_length(rp) <= IK_PI * (1 + 4 * IK_EPSILON));
        if (!v_fin)
            FZ_CHECK(quat_is_identity(e) && ik_vec3_length2(rp) == 0);
        if (q_nz)
            FZ_CHECK(quat_angle(ik_quat_from_expmap(lg), ik_quat_normalize(q)) < FZ_RT_TOL * 100);
        // the same rotation after reparameterization, while v's angle is still meaningful
        if (vec_small(v, 1e3))
            FZ_CHECK(quat_angle(ik_quat_from_expmap(rp), e) < FZ_RT_TOL * 1e3);
    }
    {
        ik_mat3 r = ik_quat_to_mat3(q);
        ik_quat back = ik_quat_from_mat3(m), rt = ik_quat_from_mat3(r);
        FZ_CHECK(mat3_finite(r) && quat_unit(back) && quat_unit(rt) && back.w >= 0);
        if (q_nz)
            FZ_CHECK(quat_angle(rt, ik_quat_normalize(q)) < FZ_RT_TOL * 10);
        if (!q_fin)
            FZ_CHECK(mat3_dist(r, ik_mat3_identity()) == 0);
    }
    {
        ik_quat a = ik_quat_from_two_vectors(v, w);
        FZ_CHECK(quat_unit(a));
        if (vec_small(v, 1e6) && vec_small(w, 1e6) && (double)ik_vec3_length(v) > 1e-6 &&
            (double)ik_vec3_length(w) > 1e-6) {
            ik_vec3 to = ik_quat_rotate(a, ik_vec3_normalize(v));
            FZ_CHECK((double)ik_vec3_length(ik_vec3_sub(to, ik_vec3_normalize(w))) <
                     FZ_RT_TOL * 1e3);
        }
    }
    {
        ik_quat s = ik_quat_slerp(q, p, t);
        FZ_CHECK(quat_unit(s));
        if (q_nz && t == 0)
            FZ_CHECK(quat_angle(s, ik_quat_normalize(q)) < FZ_RT_TOL * 100);
    }
    {
        ik_quat sw, tw;
        memset(&sw, FZ_FILL, sizeof sw);
        memset(&tw, FZ_FILL, sizeof tw);
        ik_quat_swing_twist(q, v, fz_chance(&f, 16) ? NULL : &sw, fz_chance(&f, 16) ? NULL : &tw);
        FZ_CHECK(fz_untouched(&sw, sizeof sw) || quat_unit(sw));
        FZ_CHECK(fz_untouched(&tw, sizeof tw) || quat_unit(tw));
        if (q_nz && !fz_untouched(&sw, sizeof sw) && !fz_untouched(&tw, sizeof tw))
            FZ_CHECK(quat_angle(ik_quat_mul(sw, tw), ik_quat_normalize(q)) < FZ_RT_TOL * 100);
    }
    {
        ik_mat3 r = ik_mat3_from_euler(v, (ik_euler_order)order);
        ik_vec3 e = ik_mat3_to_euler(m, (ik_euler_order)order);
        FZ_CHECK(mat3_finite(r) && ik_vec3_is_finite(e));
        if (order >= 6 || !v_fin)
            FZ_CHECK(mat3_dist(r, ik_mat3_identity()) == 0);
        if (order < 6) {
            ik_mat3 rq = ik_quat_to_mat3(q);
            ik_vec3 eq = ik_mat3_to_euler(rq, (ik_euler_order)order);
            FZ_CHECK(fabs((double)eq.y) <= (double)IK_PI / 2 * (1 + 1e-6));
            if (q_nz)
                FZ_CHECK(mat3_dist(ik_mat3_from_euler(eq, (ik_euler_order)order), rq) <
                         FZ_RT_TOL * 100);
        }
    }
    {
        ik_mat3 r0 = ik_quat_to_mat3(q), rg = ik_quat_to_mat3(p);
        ik_mat3 ri = ik_mat3_interpolate_axis(r0, rg, t), rr = ik_mat3_interpolate_axis(m, m, t);
        FZ_CHECK(mat3_finite(ri) && mat3_finite(rr));
        if (q_nz && t == 0)
            FZ_CHECK(mat3_dist(ri, r0) < FZ_RT_TOL * 100);
    }
    {
        // plain arithmetic: no promise but no sanitizer report
        ik_xform a = ik_xform_make(q, v), b = ik_xform_make(p, w);
        ik_xform c = ik_xform_mul(a, ik_xform_inverse(b));
        FZ_CHECK(quat_unit(a.rot) && quat_unit(b.rot));
        (void)ik_xform_apply(c, v);
        (void)ik_xform_apply_direction(c, w);
        (void)ik_mat3_mul_vec3(ik_mat3_transpose(ik_mat3_mul(m, m)), v);
        (void)ik_xform_translation(v);
    }
    return 0;
}
