/* Tests of ik.h's rotation maths: vectors, quaternions, axis-angle, exponential map, matrices,
   Euler angles, slerp, single-axis interpolation, shortest arc, swing-twist and transforms.

   Every property runs on many fixed-seed random cases plus the edge cases (rotation angles 0,
   1e-8, pi - 1e-8 and exactly pi about coordinate and random axes; gimbal lock; zero, subnormal,
   tiny, huge and non-finite inputs). References are computed here in double (t* helpers below,
   independent of ik.h) from the exact ik_real values handed to the library, so a float build is
   judged against the true answer for its own inputs. A property over many cases counts as one
   check; on failure it prints its worst case and the input that produced it.

   Accuracy required of a conversion: T_TOL = 1e-14 in double, 1e-5 in float. */
#include "test.h"
#include <float.h>
#include <stdarg.h>
#include <string.h>

void test_math(void);

#define D(x) ((double)(x))
#define T_PI 3.14159265358979323846
// The accuracy every rotation conversion must reach: 1e-14 in double, 1e-5 in float.
#define T_TOL TOL(1e-14, 1e-5)
// Random cases per property.
#define T_N 10000

// ---- worst-case tracking ------------------------------------------------------------------------

typedef struct t_worst {
    double err;
    char where[320];
} t_worst;

static void worst_init(t_worst *w)
{
    w->err = 0;
    w->where[0] = '\0';
}

// Records err if it is the largest so far (a NaN is kept once seen) with a description.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void
worst_add(t_worst *w, double err, const char *fmt, ...)
{
    va_list ap;
    if (w->err != w->err || err <= w->err)
        return;
    w->err = err;
    va_start(ap, fmt);
    vsnprintf(w->where, sizeof w->where, fmt, ap);
    va_end(ap);
}

static void worst_check(const t_worst *w, double tol, const char *what, int line)
{
#ifdef TEST_MATH_VERBOSE // print every property's worst case: -DTEST_MATH_VERBOSE
    printf("  %-72.72s %9.3g (tol %.3g)\n", what, w->err, tol);
#endif
    if (w->err <= tol) {
        ik_test_passed++;
    } else {
        ik_test_failed++;
        printf("FAIL %s:%d: %s: worst error %.3g > %.3g at %s\n", __FILE__, line, what, w->err, tol,
               w->where);
    }
}
#define WORST(w, tol, what) worst_check(&(w), (double)(tol), (what), __LINE__)

// One check with a formatted description printed on failure.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void
expect(int line, int ok, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        ik_test_passed++;
        return;
    }
    ik_test_failed++;
    printf("FAIL %s:%d: ", __FILE__, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

// ---- double-precision reference maths, independent of ik.h -------------------------------------

typedef struct tv3 {
    double x, y, z;
} tv3;
typedef struct tq {
    double x, y, z, w;
} tq;
typedef struct tm3 {
    double m[3][3];
} tm3;

static int t_finite(double x)
{
    return test_finite(x);
}
static tv3 tv3_make(double x, double y, double z)
{
    tv3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
static tv3 t_v(ik_vec3 v)
{
    return tv3_make(D(v.x), D(v.y), D(v.z));
}
static ik_vec3 i_v(tv3 v)
{
    return ik_vec3_make((ik_real)v.x, (ik_real)v.y, (ik_real)v.z);
}
static tq tq_make(double x, double y, double z, double w)
{
    tq q;
    q.x = x;
    q.y = y;
    q.z = z;
    q.w = w;
    return q;
}
static tq t_q(ik_quat q)
{
    return tq_make(D(q.x), D(q.y), D(q.z), D(q.w));
}
static ik_quat i_q(tq q)
{
    return ik_quat_make((ik_real)q.x, (ik_real)q.y, (ik_real)q.z, (ik_real)q.w);
}
static tm3 t_m(ik_mat3 m)
{
    tm3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = D(m.m[i][j]);
    return r;
}
static ik_mat3 i_m(tm3 m)
{
    ik_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = (ik_real)m.m[i][j];
    return r;
}
static int tv3_finite(tv3 v)
{
    return t_finite(v.x) && t_finite(v.y) && t_finite(v.z);
}
static int tq_finite(tq q)
{
    return t_finite(q.x) && t_finite(q.y) && t_finite(q.z) && t_finite(q.w);
}
static int tm3_finite(tm3 m)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (!t_finite(m.m[i][j]))
                return 0;
    return 1;
}
static double tv3_dot(tv3 a, tv3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static tv3 tv3_cross(tv3 a, tv3 b)
{
    return tv3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double tv3_len(tv3 a)
{
    return sqrt(tv3_dot(a, a));
}
static tv3 tv3_scale(tv3 a, double s)
{
    return tv3_make(a.x * s, a.y * s, a.z * s);
}
static tv3 tv3_add(tv3 a, tv3 b)
{
    return tv3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
static tv3 tv3_sub(tv3 a, tv3 b)
{
    return tv3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static tv3 tv3_unit(tv3 a)
{
    return tv3_scale(a, 1 / tv3_len(a));
}
static double tv3_dist(tv3 a, tv3 b)
{
    return tv3_len(tv3_sub(a, b));
}
static tv3 t_axis(int k)
{
    return tv3_make(k == 0 ? 1 : 0, k == 1 ? 1 : 0, k == 2 ? 1 : 0);
}
static tq tq_mul(tq a, tq b)
{
    return tq_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                   a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
static tq tq_conj(tq q)
{
    return tq_make(-q.x, -q.y, -q.z, q.w);
}
static tq tq_neg(tq q)
{
    return tq_make(-q.x, -q.y, -q.z, -q.w);
}
static tq tq_scale(tq q, double s)
{
    return tq_make(q.x * s, q.y * s, q.z * s, q.w * s);
}
static double tq_norm(tq q)
{
    return sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
}
static tq tq_unit(tq q)
{
    return tq_scale(q, 1 / tq_norm(q));
}
static tv3 tq_vec(tq q)
{
    return tv3_make(q.x, q.y, q.z);
}
// | |q|^2 - 1 |
static double tq_unit_err(tq q)
{
    return fabs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1);
}
// Angle in [0, pi] of the rotation a^-1 b; independent of the sign and the length of a and b.
static double tq_angle(tq a, tq b)
{
    tq r = tq_mul(tq_conj(a), b);
    return 2 * atan2(tv3_len(tq_vec(r)), fabs(r.w));
}
// Rotation angle in [0, pi] of q (any length, either sign).
static double tq_rot_angle(tq q)
{
    return 2 * atan2(tv3_len(tq_vec(q)), fabs(q.w));
}
// Rotation by a about the unit axis n; exactly {n, 0} at a == pi.
static tq tq_axis_angle(tv3 n, double a)
{
    double s = a == T_PI ? 1 : sin(a / 2), c = a == T_PI ? 0 : cos(a / 2);
    return tq_make(n.x * s, n.y * s, n.z * s, c);
}
// exp(v): rotation by |v| about v.
static tq tq_exp(tv3 v)
{
    double a = tv3_len(v);
    if (a == 0)
        return tq_make(0, 0, 0, 1);
    return tq_make(v.x * (sin(a / 2) / a), v.y * (sin(a / 2) / a), v.z * (sin(a / 2) / a),
                   cos(a / 2));
}
// log(q) with |v| in [0, pi].
static tv3 tq_log(tq q)
{
    if (q.w < 0)
        q = tq_neg(q);
    double s = tv3_len(tq_vec(q));
    if (s == 0)
        return tv3_make(0, 0, 0);
    return tv3_scale(tq_vec(q), 2 * atan2(s, q.w) / s);
}
static tm3 tm3_identity(void)
{
    tm3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = i == j ? 1 : 0;
    return r;
}
static tm3 tm3_mul(tm3 a, tm3 b)
{
    tm3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    return r;
}
static tm3 tm3_transpose(tm3 a)
{
    tm3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a.m[j][i];
    return r;
}
static tv3 tm3_mulv(tm3 a, tv3 v)
{
    return tv3_make(a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
                    a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
                    a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z);
}
static double tm3_dist(tm3 a, tm3 b)
{
    double m = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = fabs(a.m[i][j] - b.m[i][j]);
            if (!(d <= m))
                m = d;
        }
    return m;
}
// max |m m^T - I|
static double tm3_orth_err(tm3 m)
{
    return tm3_dist(tm3_mul(m, tm3_transpose(m)), tm3_identity());
}
static double tm3_det(tm3 m)
{
    return tv3_dot(tv3_make(m.m[0][0], m.m[0][1], m.m[0][2]),
                   tv3_cross(tv3_make(m.m[1][0], m.m[1][1], m.m[1][2]),
                             tv3_make(m.m[2][0], m.m[2][1], m.m[2][2])));
}
// Rotation by a about the unit axis n (Rodrigues); exactly 2 n n^T - I at a == pi.
static tm3 tm3_rot(tv3 n, double a)
{
    double sh = a == T_PI ? 1 : sin(a / 2), t = 2 * sh * sh;
    double c = a == T_PI ? -1 : cos(a), s = a == T_PI ? 0 : sin(a);
    double x = n.x, y = n.y, z = n.z;
    tm3 r;
    r.m[0][0] = c + t * x * x;
    r.m[0][1] = t * x * y - s * z;
    r.m[0][2] = t * x * z + s * y;
    r.m[1][0] = t * x * y + s * z;
    r.m[1][1] = c + t * y * y;
    r.m[1][2] = t * y * z - s * x;
    r.m[2][0] = t * x * z - s * y;
    r.m[2][1] = t * y * z + s * x;
    r.m[2][2] = c + t * z * z;
    return r;
}
// Rotation matrix of q (normalized here).
static tm3 tm3_from_tq(tq q)
{
    q = tq_unit(q);
    double x = q.x, y = q.y, z = q.z, w = q.w;
    tm3 r;
    r.m[0][0] = 1 - 2 * (y * y + z * z);
    r.m[0][1] = 2 * (x * y - w * z);
    r.m[0][2] = 2 * (x * z + w * y);
    r.m[1][0] = 2 * (x * y + w * z);
    r.m[1][1] = 1 - 2 * (x * x + z * z);
    r.m[1][2] = 2 * (y * z - w * x);
    r.m[2][0] = 2 * (x * z - w * y);
    r.m[2][1] = 2 * (y * z + w * x);
    r.m[2][2] = 1 - 2 * (x * x + y * y);
    return r;
}
// Unit quaternion (w >= 0) of a rotation matrix, Shepperd's method.
static tq tq_from_tm3(tm3 a)
{
    double m00 = a.m[0][0], m01 = a.m[0][1], m02 = a.m[0][2], m10 = a.m[1][0], m11 = a.m[1][1],
           m12 = a.m[1][2], m20 = a.m[2][0], m21 = a.m[2][1], m22 = a.m[2][2];
    double tr = m00 + m11 + m22, s;
    tq q;
    if (tr >= m00 && tr >= m11 && tr >= m22) {
        s = 2 * sqrt(1 + tr);
        q = tq_make((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4);
    } else if (m00 >= m11 && m00 >= m22) {
        s = 2 * sqrt(1 + m00 - m11 - m22);
        q = tq_make(s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s);
    } else if (m11 >= m22) {
        s = 2 * sqrt(1 + m11 - m00 - m22);
        q = tq_make((m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s);
    } else {
        s = 2 * sqrt(1 + m22 - m00 - m11);
        q = tq_make((m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s);
    }
    q = tq_unit(q);
    return q.w < 0 ? tq_neg(q) : q;
}
static tv3 tq_rotate(tq q, tv3 v)
{
    return tm3_mulv(tm3_from_tq(q), v);
}
static tm3 tm3_skew(tv3 v)
{
    tm3 r;
    r.m[0][0] = 0;
    r.m[0][1] = -v.z;
    r.m[0][2] = v.y;
    r.m[1][0] = v.z;
    r.m[1][1] = 0;
    r.m[1][2] = -v.x;
    r.m[2][0] = -v.y;
    r.m[2][1] = v.x;
    r.m[2][2] = 0;
    return r;
}
// Left Jacobian of SO(3): I + (1 - cos a)/a^2 [v]x + (a - sin a)/a^3 [v]x^2, evaluated without
// cancellation: (1 - cos a)/a^2 = (sin(a/2)/(a/2))^2 / 2, and (a - sin a)/a^3 by its series
// sum_k (-1)^k a^2k / (2k+3)! below a = 1.
static tm3 tm3_jacobian(tv3 v)
{
    double a = tv3_len(v), ca, cb;
    if (a == 0) {
        ca = 0.5;
    } else {
        double sc = sin(a / 2) / (a / 2);
        ca = 0.5 * sc * sc;
    }
    if (a < 1) {
        double term = 1.0 / 6;
        cb = 0;
        for (int k = 0; k < 12; k++) {
            cb += term;
            term *= -a * a / ((2.0 * k + 4) * (2.0 * k + 5));
        }
    } else {
        cb = (a - sin(a)) / (a * a * a);
    }
    tm3 k1 = tm3_skew(v), k2 = tm3_mul(k1, k1), r = tm3_identity();
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] += ca * k1.m[i][j] + cb * k2.m[i][j];
    return r;
}
// The elementary right-handed rotation about coordinate axis k with the given cos and sin:
// x: [[1,0,0],[0,c,-s],[0,s,c]], y: [[c,0,s],[0,1,0],[-s,0,c]], z: [[c,-s,0],[s,c,0],[0,0,1]].
static tm3 tm3_elem(int k, double c, double s)
{
    tm3 r = tm3_identity();
    int i = (k + 1) % 3, j = (k + 2) % 3;
    r.m[i][i] = c;
    r.m[i][j] = -s;
    r.m[j][i] = s;
    r.m[j][j] = c;
    return r;
}
// Distance between two angles modulo 2 pi, in [0, pi].
static double t_angle_diff(double a, double b)
{
    double d = fmod(a - b, 2 * T_PI);
    if (d > T_PI)
        d -= 2 * T_PI;
    if (d < -T_PI)
        d += 2 * T_PI;
    return fabs(d);
}
// A random unit direction.
static tv3 t_rng_unit(test_rng *r)
{
    for (;;) {
        // one draw per statement: argument evaluation order is unspecified
        double x = test_rng_uniform(r, -1, 1), y = test_rng_uniform(r, -1, 1);
        tv3 v = tv3_make(x, y, test_rng_uniform(r, -1, 1));
        double l2 = tv3_dot(v, v);
        if (l2 > 1e-4 && l2 <= 1)
            return tv3_scale(v, 1 / sqrt(l2));
    }
}
// A random unit direction as ik_vec3, scaled by a random length in [lo, hi).
static ik_vec3 t_rng_dir(test_rng *r, double lo, double hi)
{
    tv3 n = t_rng_unit(r);
    return i_v(tv3_scale(n, test_rng_uniform(r, lo, hi)));
}

// The edge rotations: angles 0, 1e-8, pi - 1e-8 and exactly pi, about x, y, z, -y, (1,1,1),
// (1,-2,0) and three random axes.
#define T_EDGE_ANGLES 4
#define T_EDGES       (10 * T_EDGE_ANGLES)
static void t_edge(int i, tv3 *axis, double *angle)
{
    static const double angles[T_EDGE_ANGLES] = { 0, 1e-8, T_PI - 1e-8, T_PI };
    int k = i / T_EDGE_ANGLES;
    *angle = angles[i % T_EDGE_ANGLES];
    if (k < 3) {
        *axis = t_axis(k);
    } else if (k == 3) {
        *axis = tv3_make(0, -1, 0);
    } else if (k == 4) {
        *axis = tv3_unit(tv3_make(1, 1, 1));
    } else if (k == 5) {
        *axis = tv3_unit(tv3_make(1, -2, 0));
    } else {
        test_rng r;
        r.s = 1000u + (uint64_t)k;
        *axis = t_rng_unit(&r);
    }
}

static const ik_euler_order t_orders[6] = { IK_EULER_XYZ, IK_EULER_XZY, IK_EULER_YXZ,
                                            IK_EULER_YZX, IK_EULER_ZXY, IK_EULER_ZYX };
static const int t_order_axes[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
                                        { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
static const char *const t_order_names[6] = { "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX" };

// R_a(e.x) R_b(e.y) R_c(e.z) built from elementary rotations.
static tm3 t_euler_ref(tv3 e, int o)
{
    const int *ax = t_order_axes[o];
    return tm3_mul(
        tm3_mul(tm3_elem(ax[0], cos(e.x), sin(e.x)), tm3_elem(ax[1], cos(e.y), sin(e.y))),
        tm3_elem(ax[2], cos(e.z), sin(e.z)));
}

// e.x, e.z in (-pi, pi], e.y in [-pi/2, pi/2], finite.
static int t_euler_in_range(ik_vec3 e)
{
    return e.x > -IK_PI && e.x <= IK_PI && e.z > -IK_PI && e.z <= IK_PI && e.y >= -IK_PI / 2 &&
           e.y <= IK_PI / 2;
}

#define QF    "(%.17g, %.17g, %.17g, %.17g)"
#define QA(q) D((q).x), D((q).y), D((q).z), D((q).w)
#define VF    "(%.17g, %.17g, %.17g)"
#define VA(v) D((v).x), D((v).y), D((v).z)

// ---- vectors -----------------------------------------------------------------------------------

static void test_vec3_basics(void)
{
    ik_vec3 a = ik_vec3_make(IK_R(1), IK_R(2), IK_R(3)), b = ik_vec3_make(IK_R(-4), IK_R(0.5), 2);
    ik_vec3 r;
    // Every value here is exact in float and double.
    r = ik_vec3_zero();
    CHECK(r.x == 0 && r.y == 0 && r.z == 0);
    r = ik_vec3_add(a, b);
    CHECK(D(r.x) == -3 && D(r.y) == 2.5 && D(r.z) == 5);
    r = ik_vec3_sub(a, b);
    CHECK(D(r.x) == 5 && D(r.y) == 1.5 && D(r.z) == 1);
    r = ik_vec3_scale(a, IK_R(-0.5));
    CHECK(D(r.x) == -0.5 && D(r.y) == -1 && D(r.z) == -1.5);
    r = ik_vec3_negate(b);
    CHECK(D(r.x) == 4 && D(r.y) == -0.5 && D(r.z) == -2);
    r = ik_vec3_add_scaled(a, b, IK_R(2));
    CHECK(D(r.x) == -7 && D(r.y) == 3 && D(r.z) == 7);
    CHECK(D(ik_vec3_dot(a, b)) == 3);
    r = ik_vec3_cross(a, b);
    CHECK(D(r.x) == 2.5 && D(r.y) == -14 && D(r.z) == 8.5);
    r = ik_vec3_cross(ik_vec3_make(1, 0, 0), ik_vec3_make(0, 1, 0)); // right-handed
    CHECK(r.x == 0 && r.y == 0 && D(r.z) == 1);
    CHECK(D(ik_vec3_length2(a)) == 14);
    CHECK(D(ik_vec3_length(ik_vec3_make(3, 4, 12))) == 13);
    r = ik_vec3_lerp(a, b, IK_R(0.25));
    CHECK(D(r.x) == -0.25 && D(r.y) == 1.625 && D(r.z) == 2.75);
    r = ik_vec3_lerp(a, b, 0);
    CHECK(r.x == a.x && r.y == a.y && r.z == a.z);

    // Random: a x b is perpendicular to a and b and |a x b|^2 + (a.b)^2 = |a|^2 |b|^2.
    test_rng rng = { 11 };
    t_worst wp, wl;
    worst_init(&wp);
    worst_init(&wl);
    for (int i = 0; i < T_N; i++) {
        ik_vec3 u = test_rng_vec3(&rng, -1, 1), v = test_rng_vec3(&rng, -1, 1);
        tv3 c = t_v(ik_vec3_cross(u, v)), du = t_v(u), dv = t_v(v);
        double lu = tv3_len(du), lv = tv3_len(dv), dot = D(ik_vec3_dot(u, v));
        worst_add(&wp, fabs(tv3_dot(c, du)) + fabs(tv3_dot(c, dv)), "u=" VF " v=" VF, VA(u), VA(v));
        worst_add(&wl, fabs(tv3_dot(c, c) + dot * dot - lu * lu * lv * lv), "u=" VF " v=" VF, VA(u),
                  VA(v));
    }
    WORST(wp, T_TOL, "cross product perpendicular to its factors");
    WORST(wl, T_TOL, "Lagrange identity |a x b|^2 + (a.b)^2 = |a|^2 |b|^2");
}

static void test_vec3_normalize(void)
{
    test_rng rng = { 12 };
    t_worst wu, wd;
    worst_init(&wu);
    worst_init(&wd);
    for (int i = 0; i < T_N; i++) {
        ik_vec3 v = test_rng_vec3(&rng, -10, 10);
        tv3 n = t_v(ik_vec3_normalize(v));
        worst_add(&wu, fabs(tv3_len(n) - 1), "v=" VF, VA(v));
        worst_add(&wd, tv3_dist(n, tv3_unit(t_v(v))), "v=" VF, VA(v));
    }
    WORST(wu, T_TOL, "|ik_vec3_normalize(v)| = 1");
    WORST(wd, T_TOL, "ik_vec3_normalize(v) = v / |v|");

    // Zero, subnormal and non-finite vectors give the zero vector.
    ik_real nan = (ik_real)NAN, inf = (ik_real)INFINITY;
    ik_vec3 zeros[8];
    int nz = 0;
    zeros[nz++] = ik_vec3_zero();
    zeros[nz++] = ik_vec3_make((ik_real)-0.0, 0, (ik_real)-0.0);
    zeros[nz++] = ik_vec3_make(nan, 1, 2);
    zeros[nz++] = ik_vec3_make(1, inf, 2);
    zeros[nz++] = ik_vec3_make(1, 2, -inf);
    zeros[nz++] = ik_vec3_make(inf, inf, inf);
#ifndef IK_USE_FLOAT
    zeros[nz++] = ik_vec3_make(1e-310, -1e-310, 1e-310);
#else
    zeros[nz++] = ik_vec3_make((ik_real)1e-40, (ik_real)-1e-40, (ik_real)1e-40);
#endif
    for (int i = 0; i < nz; i++) {
        ik_vec3 r = ik_vec3_normalize(zeros[i]);
        expect(__LINE__, r.x == 0 && r.y == 0 && r.z == 0,
               "ik_vec3_normalize" VF " = " VF ", want the zero vector", VA(zeros[i]), VA(r));
    }

    // Tiny (squares underflow) and huge (squares overflow) but finite normal vectors still have
    // a direction: "Unit vector along v" with no exception for them.
    ik_vec3 odd[4];
#ifndef IK_USE_FLOAT
    odd[0] = ik_vec3_make(1e-200, -2e-200, 3e-200);
    odd[1] = ik_vec3_make(3e200, 4e200, 0);
    odd[2] = ik_vec3_make(DBL_MAX, -DBL_MAX, DBL_MAX);
    odd[3] = ik_vec3_make(0, DBL_MIN, 0);
#else
    odd[0] = ik_vec3_make(IK_R(1e-30), IK_R(-2e-30), IK_R(3e-30));
    odd[1] = ik_vec3_make(IK_R(3e30), IK_R(4e30), 0);
    odd[2] = ik_vec3_make(FLT_MAX, -FLT_MAX, FLT_MAX);
    odd[3] = ik_vec3_make(0, FLT_MIN, 0);
#endif
    for (int i = 0; i < 4; i++) {
        tv3 n = t_v(ik_vec3_normalize(odd[i])), dv = t_v(odd[i]);
        // (huge vectors scaled to components up to 4: 1 / DBL_MAX is subnormal, zero under
        // -ffast-math)
        double m = fmax(fabs(dv.x), fmax(fabs(dv.y), fabs(dv.z)));
        tv3 want = tv3_unit(tv3_scale(dv, (m > 1 ? 4 : 1) / m));
        expect(__LINE__, tv3_finite(n) && tv3_dist(n, want) <= T_TOL,
               "ik_vec3_normalize" VF " = " VF ", want " VF, VA(dv), VA(n), VA(want));
    }
}

static void test_vec3_any_perpendicular(void)
{
    test_rng rng = { 13 };
    t_worst wu, wp;
    worst_init(&wu);
    worst_init(&wp);
    for (int i = 0; i < T_N + 6; i++) {
        ik_vec3 v;
        if (i < 6) // the coordinate axes, both signs
            v = i_v(tv3_scale(t_axis(i % 3), i < 3 ? 1 : -1));
        else
            v = test_rng_vec3(&rng, -10, 10);
        tv3 p = t_v(ik_vec3_any_perpendicular(v));
        worst_add(&wu, fabs(tv3_len(p) - 1), "v=" VF, VA(v));
        worst_add(&wp, fabs(tv3_dot(p, tv3_unit(t_v(v)))), "v=" VF " p=" VF, VA(v), VA(p));
    }
    WORST(wu, T_TOL, "|ik_vec3_any_perpendicular(v)| = 1");
    WORST(wp, T_TOL, "ik_vec3_any_perpendicular(v) . v = 0");

    ik_real nan = (ik_real)NAN, inf = (ik_real)INFINITY;
    ik_vec3 bad[5];
    bad[0] = ik_vec3_zero();
    bad[1] = ik_vec3_make(nan, 0, 0);
    bad[2] = ik_vec3_make(0, 0, inf);
    bad[3] = ik_vec3_make(-inf, 1, 1);
    bad[4] = ik_vec3_make(nan, nan, nan);
    for (int i = 0; i < 5; i++) {
        ik_vec3 p = ik_vec3_any_perpendicular(bad[i]);
        expect(__LINE__, D(p.x) == 1 && p.y == 0 && p.z == 0,
               "ik_vec3_any_perpendicular" VF " = " VF ", want (1, 0, 0)", VA(bad[i]), VA(p));
    }
    // Subnormal, tiny and huge inputs: a finite unit vector, perpendicular when v is normal.
    ik_vec3 odd[3];
#ifndef IK_USE_FLOAT
    odd[0] = ik_vec3_make(1e-310, 0, -1e-310);
    odd[1] = ik_vec3_make(1e-200, 3e-200, -2e-200);
    odd[2] = ik_vec3_make(1e300, -DBL_MAX, 2e300);
#else
    odd[0] = ik_vec3_make((ik_real)1e-40, 0, (ik_real)-1e-40);
    odd[1] = ik_vec3_make(IK_R(1e-30), IK_R(3e-30), IK_R(-2e-30));
    odd[2] = ik_vec3_make(IK_R(1e37), -FLT_MAX, IK_R(2e37));
#endif
    for (int i = 0; i < 3; i++) {
        tv3 p = t_v(ik_vec3_any_perpendicular(odd[i])), dv = t_v(odd[i]);
        int ok = tv3_finite(p) && fabs(tv3_len(p) - 1) <= T_TOL;
        if (i > 0) { // (1 / |subnormal| overflows)
            dv = tv3_unit(tv3_scale(dv, 1 / fmax(fabs(dv.x), fmax(fabs(dv.y), fabs(dv.z)))));
            ok = ok && fabs(tv3_dot(p, dv)) <= T_TOL;
        }
        expect(__LINE__, ok, "ik_vec3_any_perpendicular" VF " = " VF, VA(odd[i]), VA(p));
    }
}

static void test_is_finite_is_unit(void)
{
    ik_real nan = (ik_real)NAN, inf = (ik_real)INFINITY;
    CHECK(ik_vec3_is_finite(ik_vec3_make(1, 2, 3)));
    CHECK(ik_vec3_is_finite(ik_vec3_zero()));
#ifndef IK_USE_FLOAT
    CHECK(ik_vec3_is_finite(ik_vec3_make(DBL_MAX, -DBL_MAX, 1e-310)));
#else
    CHECK(ik_vec3_is_finite(ik_vec3_make(FLT_MAX, -FLT_MAX, (ik_real)1e-40)));
#endif
    for (int k = 0; k < 3; k++) {
        ik_real bad[3];
        bad[0] = nan;
        bad[1] = inf;
        bad[2] = -inf;
        for (int j = 0; j < 3; j++) {
            ik_vec3 v = ik_vec3_make(1, 2, 3);
            if (k == 0)
                v.x = bad[j];
            else if (k == 1)
                v.y = bad[j];
            else
                v.z = bad[j];
            expect(__LINE__, !ik_vec3_is_finite(v), "ik_vec3_is_finite" VF " is true", VA(v));
        }
    }

    CHECK(ik_quat_is_unit(ik_quat_identity(), 0));
    CHECK(ik_quat_is_unit(ik_quat_make(0, -1, 0, 0), 0));
    CHECK(!ik_quat_is_unit(ik_quat_make(0, 0, 0, IK_R(1.1)), IK_R(0.1))); // |q|^2 - 1 = 0.21
    CHECK(ik_quat_is_unit(ik_quat_make(0, 0, 0, IK_R(1.1)), IK_R(0.25)));
    CHECK(!ik_quat_is_unit(ik_quat_make(0, 0, 0, IK_R(0.9)), IK_R(0.1))); // 0.19
    CHECK(ik_quat_is_unit(ik_quat_make(0, 0, 0, 5), IK_INFINITY));
    CHECK(!ik_quat_is_unit(ik_quat_make(0, 0, 0, 0), IK_R(0.5)));
    CHECK(!ik_quat_is_unit(ik_quat_make(nan, 0, 0, 1), IK_INFINITY));
    CHECK(!ik_quat_is_unit(ik_quat_make(0, 0, inf, 1), IK_INFINITY));
    CHECK(!ik_quat_is_unit(ik_quat_make(0, 0, 0, -inf), IK_INFINITY));
    CHECK(!ik_quat_is_unit(ik_quat_identity(), nan));

    // Normalized random quaternions are unit to a few ulps.
    test_rng rng = { 14 };
    int bad_count = 0;
    for (int i = 0; i < T_N; i++) {
        ik_quat q = test_rng_quat(&rng);
        q = ik_quat_normalize(ik_quat_make(q.x * 3, q.y * 3, q.z * 3, q.w * 3));
        if (!ik_quat_is_unit(q, 8 * IK_EPSILON))
            bad_count++;
    }
    CHECK(bad_count == 0);
}

// ---- quaternions -------------------------------------------------------------------------------

static void test_quat_normalize(void)
{
    test_rng rng = { 15 };
    t_worst wd;
    worst_init(&wd);
    for (int i = 0; i < T_N; i++) {
        ik_quat q = test_rng_quat(&rng);
        double s = exp(test_rng_uniform(&rng, -7, 7)); // lengths 1e-3 .. 1e3
        q = ik_quat_make((ik_real)(D(q.x) * s), (ik_real)(D(q.y) * s), (ik_real)(D(q.z) * s),
                         (ik_real)(D(q.w) * s));
        tq n = t_q(ik_quat_normalize(q)), want = tq_unit(t_q(q));
        worst_add(&wd,
                  fmax(fabs(n.x - want.x),
                       fmax(fabs(n.y - want.y), fmax(fabs(n.z - want.z), fabs(n.w - want.w)))),
                  "q=" QF, QA(q));
    }
    WORST(wd, T_TOL, "ik_quat_normalize(q) = q / |q|");

    ik_real nan = (ik_real)NAN, inf = (ik_real)INFINITY;
    ik_quat bad[8];
    int nb = 0;
    bad[nb++] = ik_quat_make(0, 0, 0, 0);
    bad[nb++] = ik_quat_make((ik_real)-0.0, 0, 0, (ik_real)-0.0);
    bad[nb++] = ik_quat_make(nan, 0, 0, 1);
    bad[nb++] = ik_quat_make(0, 0, 0, nan);
    bad[nb++] = ik_quat_make(0, inf, 0, 1);
    bad[nb++] = ik_quat_make(0, 0, 0, -inf);
#ifndef IK_USE_FLOAT
    bad[nb++] = ik_quat_make(1e-310, 0, -1e-310, 1e-310);
#else
    bad[nb++] = ik_quat_make((ik_real)1e-40, 0, (ik_real)-1e-40, (ik_real)1e-40);
#endif
    for (int i = 0; i < nb; i++) {
        ik_quat r = ik_quat_normalize(bad[i]);
        expect(__LINE__, r.x == 0 && r.y == 0 && r.z == 0 && D(r.w) == 1,
               "ik_quat_normalize" QF " = " QF ", want the identity", QA(bad[i]), QA(r));
    }
    // Tiny and huge finite quaternions still have a direction.
    ik_quat odd[3];
#ifndef IK_USE_FLOAT
    odd[0] = ik_quat_make(1e-200, 0, -2e-200, 2e-200);
    odd[1] = ik_quat_make(1e200, 1e200, -1e200, 1e200);
    odd[2] = ik_quat_make(0, 0, DBL_MAX, DBL_MAX);
#else
    odd[0] = ik_quat_make(IK_R(1e-30), 0, IK_R(-2e-30), IK_R(2e-30));
    odd[1] = ik_quat_make(IK_R(1e30), IK_R(1e30), IK_R(-1e30), IK_R(1e30));
    odd[2] = ik_quat_make(0, 0, FLT_MAX, FLT_MAX);
#endif
    for (int i = 0; i < 3; i++) {
        tq r = t_q(ik_quat_normalize(odd[i])), dq = t_q(odd[i]);
        double m = fmax(fmax(fabs(dq.x), fabs(dq.y)), fmax(fabs(dq.z), fabs(dq.w)));
        tq want = tq_unit(tq_scale(dq, (m > 1 ? 4 : 1) / m)); // (as for vectors above)
        expect(__LINE__,
               tq_finite(r) && fabs(r.x - want.x) <= T_TOL && fabs(r.y - want.y) <= T_TOL &&
                   fabs(r.z - want.z) <= T_TOL && fabs(r.w - want.w) <= T_TOL,
               "ik_quat_normalize" QF " = " QF ", want " QF, QA(dq), QA(r), QA(want));
    }
}

static void test_quat_basics(void)
{
    test_rng rng = { 16 };
    t_worst wm, wr, wc;
    worst_init(&wm);
    worst_init(&wr);
    worst_init(&wc);
    for (int i = 0; i < T_N; i++) {
        ik_quat a = test_rng_quat(&rng), b = test_rng_quat(&rng);
        ik_vec3 v = test_rng_vec3(&rng, -10, 10);
        tq m = t_q(ik_quat_mul(a, b)), want = tq_mul(t_q(a), t_q(b));
        worst_add(&wm,
                  fmax(fmax(fabs(m.x - want.x), fabs(m.y - want.y)),
                       fmax(fabs(m.z - want.z), fabs(m.w - want.w))),
                  "a=" QF " b=" QF, QA(a), QA(b));
        // rotation of v: the absolute error scales with |v| (relative accuracy T_TOL)
        tv3 r = t_v(ik_quat_rotate(a, v)), rw = tq_rotate(t_q(a), t_v(v));
        worst_add(&wr, tv3_dist(r, rw) / fmax(1, tv3_len(t_v(v))), "q=" QF " v=" VF, QA(a), VA(v));
        // conjugate is the inverse: q* (q v) = v
        tv3 back = t_v(ik_quat_rotate(ik_quat_conjugate(a), ik_quat_rotate(a, v)));
        worst_add(&wc, tv3_dist(back, t_v(v)) / fmax(1, tv3_len(t_v(v))), "q=" QF " v=" VF, QA(a),
                  VA(v));
    }
    WORST(wm, T_TOL, "ik_quat_mul = Hamilton product");
    WORST(wr, T_TOL, "ik_quat_rotate = R(q) v (relative to |v|)");
    WORST(wc, T_TOL, "ik_quat_rotate(conj(q), ik_quat_rotate(q, v)) = v (relative to |v|)");

    ik_quat q = ik_quat_make(1, 2, 3, 4);
    ik_quat c = ik_quat_conjugate(q);
    CHECK(D(c.x) == -1 && D(c.y) == -2 && D(c.z) == -3 && D(c.w) == 4);
    CHECK(D(ik_quat_dot(q, ik_quat_make(-1, 1, 2, IK_R(0.5)))) == 9);
    ik_quat p = ik_quat_mul(ik_quat_identity(), q);
    CHECK(p.x == q.x && p.y == q.y && p.z == q.z && p.w == q.w);
    // Hamilton convention: i * j = k.
    p = ik_quat_mul(ik_quat_make(1, 0, 0, 0), ik_quat_make(0, 1, 0, 0));
    CHECK(p.x == 0 && p.y == 0 && D(p.z) == 1 && p.w == 0);
    // Right-handed: a quarter turn about z takes x to y, about x takes y to z.
    ik_vec3 r = ik_quat_rotate(ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), IK_PI / 2),
                               ik_vec3_make(1, 0, 0));
    CHECK(test_vec3_dist(r, ik_vec3_make(0, 1, 0)) <= T_TOL);
    r = ik_quat_rotate(ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), IK_PI / 2),
                       ik_vec3_make(0, 1, 0));
    CHECK(test_vec3_dist(r, ik_vec3_make(0, 0, 1)) <= T_TOL);
}

// ---- axis-angle --------------------------------------------------------------------------------

static void test_axis_angle(void)
{
    test_rng rng = { 17 };
    t_worst wf, wrt, wa, wax, wneg, wu, wr;
    worst_init(&wf);
    worst_init(&wrt);
    worst_init(&wa);
    worst_init(&wax);
    worst_init(&wneg);
    worst_init(&wu);
    worst_init(&wr);
    for (int i = 0; i < T_N; i++) {
        // from_axis_angle: any angle, axis of any length
        ik_vec3 axis = t_rng_dir(&rng, 0.01, 100);
        ik_real ang = (ik_real)test_rng_uniform(&rng, -2 * T_PI, 2 * T_PI);
        ik_quat q = ik_quat_from_axis_angle(axis, ang);
        worst_add(&wf, tq_angle(t_q(q), tq_axis_angle(tv3_unit(t_v(axis)), D(ang))),
                  "axis=" VF " angle=%.17g", VA(axis), D(ang));
        worst_add(&wu, tq_unit_err(t_q(q)), "axis=" VF " angle=%.17g", VA(axis), D(ang));

        // to_axis_angle: angle, axis, round trip, q and -q
        q = test_rng_quat(&rng);
        ik_vec3 ax, axn;
        ik_real a = ik_quat_to_axis_angle(q, &ax);
        ik_real an = ik_quat_to_axis_angle(ik_quat_make(-q.x, -q.y, -q.z, -q.w), &axn);
        tq dq = t_q(q);
        double want = tq_rot_angle(dq);
        tv3 want_axis = tv3_scale(tv3_unit(tq_vec(dq)), dq.w < 0 ? -1 : 1);
        worst_add(&wr, (a >= 0 && a <= IK_PI) ? 0 : 1, "q=" QF " angle=%.17g", QA(q), D(a));
        worst_add(&wa, fabs(D(a) - want), "q=" QF, QA(q));
        worst_add(&wax, tv3_dist(t_v(ax), want_axis), "q=" QF " axis=" VF, QA(q), VA(ax));
        worst_add(&wneg, fmax(fabs(D(a) - D(an)), tv3_dist(t_v(ax), t_v(axn))), "q=" QF, QA(q));
        worst_add(&wrt, tq_angle(dq, t_q(ik_quat_from_axis_angle(ax, a))), "q=" QF, QA(q));
        worst_add(&wu, fabs(tv3_len(t_v(ax)) - 1), "q=" QF, QA(q));
    }
    WORST(wf, T_TOL, "ik_quat_from_axis_angle = rotation by angle about axis");
    WORST(wu, T_TOL, "axis-angle results are unit");
    WORST(wr, 0, "ik_quat_to_axis_angle angle in [0, pi]");
    WORST(wa, T_TOL, "ik_quat_to_axis_angle angle");
    WORST(wax, T_TOL, "ik_quat_to_axis_angle axis");
    WORST(wneg, T_TOL, "ik_quat_to_axis_angle(q) = ik_quat_to_axis_angle(-q)");
    WORST(wrt, T_TOL, "from_axis_angle(to_axis_angle(q)) = q");

    // Edge angles 0, 1e-8, pi - 1e-8, pi.
    for (int i = 0; i < T_EDGES; i++) {
        tv3 n;
        double ang;
        t_edge(i, &n, &ang);
        ik_quat q = i_q(tq_axis_angle(n, ang)), qn = ik_quat_make(-q.x, -q.y, -q.z, -q.w);
        ik_vec3 ax, axn;
        ik_real a = ik_quat_to_axis_angle(q, &ax), an = ik_quat_to_axis_angle(qn, &axn);
        double want = tq_rot_angle(t_q(q));
        expect(__LINE__, fabs(D(a) - want) <= T_TOL && a >= 0 && a <= IK_PI,
               "ik_quat_to_axis_angle(" QF ") angle %.17g, want %.17g", QA(q), D(a), want);
        if (ang == 0) {
            expect(__LINE__, a == 0 && D(ax.x) == 1 && ax.y == 0 && ax.z == 0,
                   "ik_quat_to_axis_angle(identity) = %.17g, " VF ", want 0, (1, 0, 0)", D(a),
                   VA(ax));
        } else {
            // the axis is n, or -n for a half turn
            double d = tv3_dist(t_v(ax), n);
            if (ang == T_PI)
                d = fmin(d, tv3_dist(t_v(ax), tv3_scale(n, -1)));
            expect(__LINE__, d <= T_TOL, "ik_quat_to_axis_angle(" QF ") axis " VF ", want " VF,
                   QA(q), VA(ax), VA(n));
        }
        // "q and -q give the same answer" (at exactly pi, w = 0 and -q has w = -0)
        expect(__LINE__, fabs(D(a) - D(an)) <= T_TOL && tv3_dist(t_v(ax), t_v(axn)) <= T_TOL,
               "ik_quat_to_axis_angle(q) != ik_quat_to_axis_angle(-q): q=" QF ": %.17g " VF
               " vs %.17g " VF,
               QA(q), D(a), VA(ax), D(an), VA(axn));
        ik_quat back = ik_quat_from_axis_angle(ax, a);
        expect(__LINE__, tq_angle(t_q(q), t_q(back)) <= T_TOL,
               "from_axis_angle(to_axis_angle(q)) = " QF ", q = " QF, QA(back), QA(q));
        // from_axis_angle on the edge angles
        ik_quat f = ik_quat_from_axis_angle(i_v(n), (ik_real)ang);
        expect(__LINE__,
               tq_angle(t_q(f), tq_axis_angle(t_v(i_v(n)), D((ik_real)ang))) <= T_TOL &&
                   tq_unit_err(t_q(f)) <= T_TOL,
               "ik_quat_from_axis_angle(" VF ", %.17g) = " QF, VA(n), ang, QA(f));
    }

    // Documented special inputs.
    ik_quat z = ik_quat_from_axis_angle(ik_vec3_zero(), IK_R(1.5));
    CHECK(z.x == 0 && z.y == 0 && z.z == 0 && D(z.w) == 1);
    ik_vec3 ax;
    ik_real a = ik_quat_to_axis_angle(ik_quat_make(0, 0, 0, 0), &ax);
    CHECK(a == 0 && D(ax.x) == 1 && ax.y == 0 && ax.z == 0);
    a = ik_quat_to_axis_angle(ik_quat_make(0, 0, 0, IK_R(-3)), &ax);
    CHECK(a == 0 && D(ax.x) == 1 && ax.y == 0 && ax.z == 0);
    // NULL axis is accepted; a non-unit q is normalized
    a = ik_quat_to_axis_angle(ik_quat_make(0, 0, IK_R(2.0 * sin(0.35)), IK_R(2.0 * cos(0.35))),
                              NULL);
    CHECK_NEAR(a, 0.7, T_TOL);
}

// ---- quaternion <-> matrix ---------------------------------------------------------------------

static void test_quat_mat3(void)
{
    test_rng rng = { 18 };
    t_worst wm, wo, wdet, ws, wq, wqw, wmm, wref, wu;
    worst_init(&wm);
    worst_init(&wo);
    worst_init(&wdet);
    worst_init(&ws);
    worst_init(&wq);
    worst_init(&wqw);
    worst_init(&wmm);
    worst_init(&wref);
    worst_init(&wu);
    for (int i = 0; i < T_N + T_EDGES; i++) {
        ik_quat q;
        ik_mat3 r;
        if (i < T_EDGES) {
            tv3 n;
            double ang;
            t_edge(i, &n, &ang);
            q = i_q(tq_axis_angle(n, ang));
            r = i_m(tm3_rot(n, ang));
        } else {
            q = test_rng_quat(&rng);
            r = i_m(tm3_from_tq(t_q(test_rng_quat(&rng))));
        }
        // quat -> mat3
        tm3 m = t_m(ik_quat_to_mat3(q));
        worst_add(&wm, tm3_dist(m, tm3_from_tq(t_q(q))), "q=" QF, QA(q));
        worst_add(&wo, tm3_orth_err(m), "q=" QF, QA(q));
        worst_add(&wdet, fabs(tm3_det(m) - 1), "q=" QF, QA(q));
        // non-unit q is normalized first
        ik_quat q3 =
            ik_quat_make(q.x * IK_R(3.5), q.y * IK_R(3.5), q.z * IK_R(3.5), q.w * IK_R(3.5));
        worst_add(&ws, tm3_dist(t_m(ik_quat_to_mat3(q3)), m), "q=" QF, QA(q));
        // quat -> mat3 -> quat
        ik_quat back = ik_quat_from_mat3(ik_quat_to_mat3(q));
        worst_add(&wq, tq_angle(t_q(q), t_q(back)), "q=" QF " back=" QF, QA(q), QA(back));
        worst_add(&wqw, back.w >= 0 ? 0 : 1, "q=" QF " back=" QF, QA(q), QA(back));
        worst_add(&wu, tq_unit_err(t_q(back)), "q=" QF, QA(q));
        // mat3 -> quat (against Shepperd in double) -> mat3
        ik_quat qr = ik_quat_from_mat3(r);
        worst_add(&wref, tq_angle(t_q(qr), tq_from_tm3(t_m(r))), "r from q=" QF,
                  QA(tq_from_tm3(t_m(r))));
        worst_add(&wqw, qr.w >= 0 ? 0 : 1, "r from q=" QF " result " QF, QA(tq_from_tm3(t_m(r))),
                  QA(qr));
        worst_add(&wu, tq_unit_err(t_q(qr)), "r from q=" QF, QA(tq_from_tm3(t_m(r))));
        worst_add(&wmm, tm3_dist(t_m(ik_quat_to_mat3(qr)), t_m(r)), "r from q=" QF,
                  QA(tq_from_tm3(t_m(r))));
    }
    WORST(wm, T_TOL, "ik_quat_to_mat3 = R(q)");
    WORST(wo, T_TOL, "ik_quat_to_mat3 orthonormal");
    WORST(wdet, T_TOL, "det ik_quat_to_mat3 = 1");
    WORST(ws, T_TOL, "ik_quat_to_mat3(3.5 q) = ik_quat_to_mat3(q)");
    WORST(wq, T_TOL, "ik_quat_from_mat3(ik_quat_to_mat3(q)) = +-q");
    WORST(wqw, 0, "ik_quat_from_mat3 w >= 0");
    WORST(wu, T_TOL, "ik_quat_from_mat3 unit");
    WORST(wref, T_TOL, "ik_quat_from_mat3 = Shepperd reference");
    WORST(wmm, T_TOL, "ik_quat_to_mat3(ik_quat_from_mat3(R)) = R");

    // Matrices that are not rotations: a finite unit quaternion.
    tm3 odd[4];
    odd[0] = tm3_identity();
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            odd[0].m[i][j] = 0;
    odd[1] = tm3_identity();
    for (int i = 0; i < 3; i++)
        odd[1].m[i][i] = -1;
    odd[2] = tm3_rot(tv3_unit(tv3_make(1, 2, 3)), 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            odd[2].m[i][j] *= 2.5;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            odd[3].m[i][j] = test_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < 4; i++) {
        tq q = t_q(ik_quat_from_mat3(i_m(odd[i])));
        expect(__LINE__, tq_finite(q) && tq_unit_err(q) <= T_TOL,
               "ik_quat_from_mat3(non-rotation %d) = " QF, i, QA(q));
    }
    // Right-handed: a quarter turn about z is [[0,-1,0],[1,0,0],[0,0,1]].
    tm3 qz = t_m(ik_quat_to_mat3(i_q(tq_axis_angle(t_axis(2), T_PI / 2))));
    CHECK(tm3_dist(qz, tm3_elem(2, 0, 1)) <= T_TOL);
    CHECK(D(qz.m[0][1]) < -0.5 && D(qz.m[1][0]) > 0.5);
}

// ---- exponential map ---------------------------------------------------------------------------

static void test_expmap(void)
{
    test_rng rng = { 19 };
    // |v| computed from the rounded components of a result whose true length is pi can exceed
    // pi by a few ulps of the length computation itself.
    const double pi_max = D(IK_PI) * (1 + 4 * D(IK_EPSILON));
    t_worst wlen, wneg, wexp, wlog, wref, wvv, wfe, wfu;
    worst_init(&wlen);
    worst_init(&wneg);
    worst_init(&wexp);
    worst_init(&wlog);
    worst_init(&wref);
    worst_init(&wvv);
    worst_init(&wfe);
    worst_init(&wfu);
    for (int i = 0; i < T_N; i++) {
        ik_quat q = test_rng_quat(&rng);
        ik_vec3 v = ik_quat_to_expmap(q);
        ik_vec3 vn = ik_quat_to_expmap(ik_quat_make(-q.x, -q.y, -q.z, -q.w));
        worst_add(&wlen, tv3_len(t_v(v)) <= pi_max ? 0 : 1, "q=" QF " v=" VF, QA(q), VA(v));
        worst_add(&wneg, tv3_dist(t_v(v), t_v(vn)), "q=" QF, QA(q));
        worst_add(&wexp, tq_angle(t_q(q), t_q(ik_quat_from_expmap(v))), "q=" QF, QA(q));
        worst_add(&wref, tv3_dist(t_v(v), tq_log(t_q(q))), "q=" QF, QA(q));

        // exp then log, |v| < pi (away from the half turn where v and -v meet)
        ik_vec3 w = t_rng_dir(&rng, 0, T_PI - 1e-3);
        ik_quat e = ik_quat_from_expmap(w);
        worst_add(&wfe, tq_angle(t_q(e), tq_exp(t_v(w))), "v=" VF, VA(w));
        worst_add(&wfu, tq_unit_err(t_q(e)), "v=" VF, VA(w));
        worst_add(&wlog, tv3_dist(t_v(ik_quat_to_expmap(e)), t_v(w)), "v=" VF, VA(w));

        // exp of any length: the angle error of |v| grows with |v| (ulp of |v|), so relative
        ik_vec3 big = t_rng_dir(&rng, T_PI, 12 * T_PI);
        e = ik_quat_from_expmap(big);
        worst_add(&wvv, tq_angle(t_q(e), tq_exp(t_v(big))) / fmax(1, tv3_len(t_v(big)) / T_PI),
                  "v=" VF, VA(big));
        worst_add(&wfu, tq_unit_err(t_q(e)), "v=" VF, VA(big));
    }
    WORST(wlen, 0, "|ik_quat_to_expmap(q)| <= pi");
    WORST(wneg, T_TOL, "ik_quat_to_expmap(q) = ik_quat_to_expmap(-q)");
    WORST(wexp, T_TOL, "exp(log(q)) = +-q");
    WORST(wref, T_TOL, "ik_quat_to_expmap = reference log");
    WORST(wfe, T_TOL, "ik_quat_from_expmap = reference exp");
    WORST(wfu, T_TOL, "ik_quat_from_expmap unit");
    WORST(wlog, T_TOL, "log(exp(v)) = v for |v| < pi");
    WORST(wvv, T_TOL, "ik_quat_from_expmap for pi < |v| < 12 pi (relative to |v| / pi)");

    // Edge rotations.
    for (int i = 0; i < T_EDGES; i++) {
        tv3 n;
        double ang;
        t_edge(i, &n, &ang);
        ik_quat q = i_q(tq_axis_angle(n, ang)), qn = ik_quat_make(-q.x, -q.y, -q.z, -q.w);
        tv3 v = t_v(ik_quat_to_expmap(q)), vn = t_v(ik_quat_to_expmap(qn));
        expect(__LINE__, tv3_len(v) <= pi_max && tv3_finite(v),
               "|ik_quat_to_expmap(" QF ")| = %.17g > pi", QA(q), tv3_len(v));
        expect(__LINE__, tv3_dist(v, tq_log(t_q(q))) <= T_TOL || ang == T_PI,
               "ik_quat_to_expmap(" QF ") = " VF ", want " VF, QA(q), VA(v), VA(tq_log(t_q(q))));
        if (ang == T_PI)
            expect(__LINE__, fabs(tv3_len(v) - T_PI) <= T_TOL && tv3_len(tv3_cross(v, n)) <= T_TOL,
                   "ik_quat_to_expmap(half turn " QF ") = " VF, QA(q), VA(v));
        // "q and -q give the same v" (at exactly pi, w = 0 and -q has w = -0)
        expect(__LINE__, tv3_dist(v, vn) <= T_TOL,
               "ik_quat_to_expmap(q) != ik_quat_to_expmap(-q): q=" QF ": " VF " vs " VF, QA(q),
               VA(v), VA(vn));
        ik_quat e = ik_quat_from_expmap(i_v(v));
        expect(__LINE__, tq_angle(t_q(e), t_q(q)) <= T_TOL, "exp(log(" QF ")) = " QF, QA(q), QA(e));
        // exp of the edge expmap itself
        ik_vec3 ve = i_v(tv3_scale(n, ang));
        e = ik_quat_from_expmap(ve);
        expect(__LINE__, tq_angle(t_q(e), tq_exp(t_v(ve))) <= T_TOL,
               "ik_quat_from_expmap(" VF ") = " QF, VA(ve), QA(e));
#ifndef IK_USE_FLOAT
        // log(exp(v)) = v, below pi (in float pi - 1e-8 rounds to or above pi)
        if (ang < T_PI)
            expect(__LINE__, tv3_dist(t_v(ik_quat_to_expmap(e)), t_v(ve)) <= T_TOL,
                   "log(exp(" VF ")) = " VF, VA(ve), VA(ik_quat_to_expmap(e)));
#endif
    }

    // Near 0 the log equals angle * axis to relative T_TOL.
    static const double small[] = { 1e-3,  1e-6,  1e-8, 1e-12, 0,
#ifndef IK_USE_FLOAT
                                    1e-20, 1e-100
#endif
    };
    for (size_t s = 0; s < sizeof small / sizeof small[0]; s++) {
        for (int k = 0; k < 5; k++) {
            tv3 n = k < 3 ? t_axis(k) : t_rng_unit(&rng);
            double ang = small[s];
            ik_quat q = i_q(tq_axis_angle(n, ang));
            tv3 v = t_v(ik_quat_to_expmap(q)), want = tv3_scale(n, ang);
            expect(__LINE__, tv3_dist(v, want) <= T_TOL * ang,
                   "ik_quat_to_expmap(" QF ") = " VF ", want " VF " to relative %.3g", QA(q), VA(v),
                   VA(want), T_TOL);
            // exp at tiny |v| against its series: xyz = v (1/2 - a^2/48 + a^4/3840),
            // w = 1 - a^2/8 + a^4/384
            ik_vec3 iv = i_v(want);
            tv3 dv = t_v(iv);
            double a2 = tv3_dot(dv, dv), f = 0.5 - a2 / 48 + a2 * a2 / 3840;
            tq sw = tq_make(dv.x * f, dv.y * f, dv.z * f, 1 - a2 / 8 + a2 * a2 / 384);
            tq e = t_q(ik_quat_from_expmap(iv));
            double exyz = tv3_dist(tq_vec(e), tq_vec(sw));
            expect(__LINE__, exyz <= T_TOL * tv3_len(tq_vec(sw)) && fabs(e.w - sw.w) <= T_TOL,
                   "ik_quat_from_expmap(" VF ") = " QF ", series " QF, VA(iv), QA(e), QA(sw));
        }
    }
    // Components so small that their squares underflow: finite, tiny, no NaN.
    {
#ifndef IK_USE_FLOAT
        ik_vec3 tv = ik_vec3_make(1e-200, -3e-201, 1e-310);
        ik_quat tqq = ik_quat_make(5e-201, 0, -1e-310, 1);
#else
        ik_vec3 tv = ik_vec3_make(IK_R(1e-30), IK_R(-3e-31), (ik_real)1e-40);
        ik_quat tqq = ik_quat_make(IK_R(5e-31), 0, (ik_real)-1e-40, 1);
#endif
        tq e = t_q(ik_quat_from_expmap(tv));
        expect(__LINE__, tq_finite(e) && tq_angle(e, tq_make(0, 0, 0, 1)) <= T_TOL,
               "ik_quat_from_expmap(" VF ") = " QF, VA(tv), QA(e));
        tv3 v = t_v(ik_quat_to_expmap(tqq));
        expect(__LINE__, tv3_finite(v) && tv3_len(v) <= T_TOL, "ik_quat_to_expmap(" QF ") = " VF,
               QA(tqq), VA(v));
    }
    // zero
    ik_quat e0 = ik_quat_from_expmap(ik_vec3_zero());
    CHECK(e0.x == 0 && e0.y == 0 && e0.z == 0 && D(e0.w) == 1);
    ik_vec3 v0 = ik_quat_to_expmap(ik_quat_identity());
    CHECK(v0.x == 0 && v0.y == 0 && v0.z == 0);
    v0 = ik_quat_to_expmap(ik_quat_make(0, 0, 0, IK_R(-2)));
    CHECK(v0.x == 0 && v0.y == 0 && v0.z == 0);
    // a non-unit q is normalized: log(2.5 q) = log(q)
    ik_quat qs = ik_quat_make(IK_R(2.5 * sin(0.6)), 0, 0, IK_R(2.5 * cos(0.6)));
    CHECK(test_vec3_dist(ik_quat_to_expmap(qs), ik_vec3_make(IK_R(1.2), 0, 0)) <= T_TOL);
}

static void test_expmap_reparameterize(void)
{
    test_rng rng = { 20 };
    const double pi_max = D(IK_PI) * (1 + 4 * D(IK_EPSILON)); // as in test_expmap
    t_worst wlen, wrot, wpar, wid;
    worst_init(&wlen);
    worst_init(&wrot);
    worst_init(&wpar);
    worst_init(&wid);
    for (int i = 0; i < T_N; i++) {
        ik_vec3 v = t_rng_dir(&rng, T_PI, 10 * T_PI);
        tv3 dv = t_v(v), r = t_v(ik_expmap_reparameterize(v));
        // the rounding of |v| itself is an ulp of |v|: angle errors scale with |v| / pi
        double scale = fmax(1, tv3_len(dv) / T_PI);
        worst_add(&wlen, tv3_len(r) <= pi_max ? 0 : 1, "v=" VF " -> " VF, VA(v), VA(r));
        worst_add(&wrot, tq_angle(tq_exp(dv), tq_exp(r)) / scale, "v=" VF " -> " VF, VA(v), VA(r));
        worst_add(&wpar, tv3_len(tv3_cross(r, tv3_unit(dv))) / scale, "v=" VF " -> " VF, VA(v),
                  VA(r));
        // |v| <= pi: unchanged
        ik_vec3 s = t_rng_dir(&rng, 0, T_PI - 1e-6);
        worst_add(&wid, tv3_dist(t_v(ik_expmap_reparameterize(s)), t_v(s)), "v=" VF, VA(s));
    }
    WORST(wlen, 0, "|ik_expmap_reparameterize(v)| <= pi for pi < |v| < 10 pi");
    WORST(wrot, T_TOL, "ik_expmap_reparameterize keeps the rotation (relative to |v| / pi)");
    WORST(wpar, T_TOL, "ik_expmap_reparameterize(v) parallel to v");
    WORST(wid, T_TOL, "ik_expmap_reparameterize(v) = v for |v| < pi");

    // |v| = 2 pi is the identity, |v| = 3 pi a half turn; zero stays zero.
    tv3 n = tv3_unit(tv3_make(2, -1, 2));
    tv3 r = t_v(ik_expmap_reparameterize(i_v(tv3_scale(n, 2 * T_PI))));
    expect(__LINE__, tv3_len(r) <= 2 * T_TOL, "ik_expmap_reparameterize(2 pi n) = " VF, VA(r));
    // the error grows with |v| / pi (ulps of |v|), as above: 3 and 8 times T_TOL
    r = t_v(ik_expmap_reparameterize(i_v(tv3_scale(n, 3 * T_PI))));
    expect(__LINE__, fabs(tv3_len(r) - T_PI) <= 3 * T_TOL && tv3_len(r) <= pi_max,
           "ik_expmap_reparameterize(3 pi n) = " VF, VA(r));
    r = t_v(ik_expmap_reparameterize(i_v(tv3_scale(n, -7.5 * T_PI))));
    expect(__LINE__, tv3_dist(r, tv3_scale(n, 0.5 * T_PI)) <= 8 * T_TOL,
           "ik_expmap_reparameterize(-7.5 pi n) = " VF ", want 0.5 pi n", VA(r));
    ik_vec3 z = ik_expmap_reparameterize(ik_vec3_zero());
    CHECK(z.x == 0 && z.y == 0 && z.z == 0);
}

static void test_expmap_jacobian(void)
{
    test_rng rng = { 21 };
    t_worst wref, wfd;
    worst_init(&wref);
    worst_init(&wfd);
#ifndef IK_USE_FLOAT
    // Central differences with h = 1e-5: truncation ~ h^2 * O(1) = 1e-10, rounding ~ eps / h =
    // 1e-11, so 1e-7 leaves a wide margin and still catches any wrong term (errors of O(|v|)).
    const double h = 1e-5, fd_tol = 1e-7;
#else
    // Float: rounding ~ FLT_EPSILON / h = 1e-5 and truncation ~ h^2 = 1e-4 with h = 1e-2.
    const double h = 1e-2, fd_tol = 1e-2;
#endif
    for (int i = 0; i < 2000 + 40; i++) {
        ik_vec3 v;
        int c = i - 2000;
        if (i < 2000)
            v = t_rng_dir(&rng, 0, i < 1500 ? T_PI : 5);
        else if (c < 5)
            v = ik_vec3_zero();
        else if (c < 15)
            v = t_rng_dir(&rng, 1e-6, 1e-6); // |v| = 1e-6
        else if (c < 25)
            v = t_rng_dir(&rng, T_PI - 1e-6, T_PI - 1e-6);
        else if (c < 35)
            v = t_rng_dir(&rng, T_PI, T_PI);
        else
            v = i_v(tv3_scale(t_axis(c % 3), c % 2 ? T_PI : 1e-8));
        tm3 j = t_m(ik_expmap_jacobian(v));
        worst_add(&wref, tm3_dist(j, tm3_jacobian(t_v(v))), "v=" VF, VA(v));
        for (int k = 0; k < 3; k++) {
            ik_vec3 vp = v, vm = v;
            ik_real *pp = k == 0 ? &vp.x : k == 1 ? &vp.y : &vp.z;
            ik_real *pm = k == 0 ? &vm.x : k == 1 ? &vm.y : &vm.z;
            *pp = (ik_real)(D(*pp) + h);
            *pm = (ik_real)(D(*pm) - h);
            double step = D(*pp) - D(*pm); // the step actually taken, ~2h
            // exp(v + h e_k) exp(v - h e_k)^T = exp([w]x 2h): w from the rotation log.
            tq d = tq_mul(t_q(ik_quat_from_expmap(vp)), tq_conj(t_q(ik_quat_from_expmap(vm))));
            tv3 w = tv3_scale(tq_log(d), 1 / step);
            tv3 col = tv3_make(j.m[0][k], j.m[1][k], j.m[2][k]);
            worst_add(&wfd, tv3_dist(w, col), "v=" VF " column %d: J " VF " fd " VF, VA(v), k,
                      VA(col), VA(w));
        }
    }
    WORST(wref, T_TOL, "ik_expmap_jacobian = I + (1-cos a)/a^2 [v]x + (a-sin a)/a^3 [v]x^2");
    WORST(wfd, fd_tol, "ik_expmap_jacobian = central differences of ik_quat_from_expmap");
    ik_mat3 j0 = ik_expmap_jacobian(ik_vec3_zero());
    CHECK(test_mat3_dist(j0, ik_mat3_identity()) == 0);
}

// ---- matrices ----------------------------------------------------------------------------------

static void test_mat3_basics(void)
{
    ik_mat3 id = ik_mat3_identity();
    CHECK(tm3_dist(t_m(id), tm3_identity()) == 0);
    test_rng rng = { 22 };
    t_worst wm, wt, wv;
    worst_init(&wm);
    worst_init(&wt);
    worst_init(&wv);
    for (int i = 0; i < 1000; i++) {
        tm3 a, b;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                a.m[r][c] = D((ik_real)test_rng_uniform(&rng, -2, 2));
                b.m[r][c] = D((ik_real)test_rng_uniform(&rng, -2, 2));
            }
        ik_vec3 v = test_rng_vec3(&rng, -2, 2);
        // entries up to 3 * 2 * 2 = 12: relative accuracy T_TOL
        worst_add(&wm, tm3_dist(t_m(ik_mat3_mul(i_m(a), i_m(b))), tm3_mul(a, b)) / 12, "#%d", i);
        worst_add(&wt, tm3_dist(t_m(ik_mat3_transpose(i_m(a))), tm3_transpose(a)), "#%d", i);
        worst_add(&wv, tv3_dist(t_v(ik_mat3_mul_vec3(i_m(a), v)), tm3_mulv(a, t_v(v))) / 12, "#%d",
                  i);
        CHECK(i > 0 || tm3_dist(t_m(ik_mat3_mul(id, i_m(a))), a) == 0);
    }
    WORST(wm, T_TOL, "ik_mat3_mul");
    WORST(wt, 0, "ik_mat3_transpose");
    WORST(wv, T_TOL, "ik_mat3_mul_vec3");
    // m[row][col] multiplies column vectors: a quarter turn about z takes x to y.
    tm3 rz = tm3_elem(2, 0, 1);
    ik_vec3 y = ik_mat3_mul_vec3(i_m(rz), ik_vec3_make(1, 0, 0));
    CHECK(y.x == 0 && D(y.y) == 1 && y.z == 0);
}

// ---- Euler angles ------------------------------------------------------------------------------

static void test_euler_from(void)
{
    // The test's elementary rotations are right-handed rotations about the coordinate axes.
    for (int k = 0; k < 3; k++)
        for (int i = -4; i <= 4; i++) {
            double t = 0.7 * i;
            CHECK(tm3_dist(tm3_elem(k, cos(t), sin(t)), tm3_rot(t_axis(k), t)) <= 1e-15);
        }
    // Single-angle matrices, explicitly: x [[1,0,0],[0,c,-s],[0,s,c]] and so on.
    for (int o = 0; o < 6; o++)
        for (int slot = 0; slot < 3; slot++) {
            ik_real t = IK_R(0.3);
            tv3 e = tv3_make(slot == 0 ? D(t) : 0, slot == 1 ? D(t) : 0, slot == 2 ? D(t) : 0);
            tm3 m = t_m(ik_mat3_from_euler(i_v(e), t_orders[o]));
            tm3 want = tm3_elem(t_order_axes[o][slot], cos(D(t)), sin(D(t)));
            expect(__LINE__, tm3_dist(m, want) <= T_TOL, "ik_mat3_from_euler(" VF ", %s)", VA(e),
                   t_order_names[o]);
        }
    test_rng rng = { 23 };
    t_worst w[6], wo;
    worst_init(&wo);
    for (int o = 0; o < 6; o++)
        worst_init(&w[o]);
    for (int i = 0; i < T_N; i++) {
        ik_vec3 e = test_rng_vec3(&rng, -T_PI, T_PI);
        if (i % 4 == 0)
            e = test_rng_vec3(&rng, -10, 10); // beyond the canonical ranges
        for (int o = 0; o < 6; o++) {
            tm3 m = t_m(ik_mat3_from_euler(e, t_orders[o]));
            worst_add(&w[o], tm3_dist(m, t_euler_ref(t_v(e), o)), "e=" VF, VA(e));
            worst_add(&wo, tm3_orth_err(m), "e=" VF " %s", VA(e), t_order_names[o]);
        }
    }
    for (int o = 0; o < 6; o++) {
        char what[96];
        snprintf(what, sizeof what, "ik_mat3_from_euler(e, %s) = R_a R_b R_c", t_order_names[o]);
        WORST(w[o], T_TOL, what);
    }
    WORST(wo, T_TOL, "ik_mat3_from_euler orthonormal");
    // An unknown order gives the identity.
    ik_mat3 u = ik_mat3_from_euler(ik_vec3_make(1, 2, 3), (ik_euler_order)6);
    CHECK(tm3_dist(t_m(u), tm3_identity()) == 0);
}

static void test_euler_to(void)
{
    test_rng rng = { 24 };
    t_worst wm[6], wr, wa[6];
    worst_init(&wr);
    for (int o = 0; o < 6; o++) {
        worst_init(&wm[o]);
        worst_init(&wa[o]);
    }
    for (int i = 0; i < T_N + T_EDGES; i++) {
        ik_mat3 r;
        if (i < T_EDGES) {
            tv3 n;
            double ang;
            t_edge(i, &n, &ang);
            r = i_m(tm3_rot(n, ang));
        } else {
            r = ik_quat_to_mat3(test_rng_quat(&rng));
        }
        // Euler angles away from gimbal lock (cos e.y >= 0.3): the angles come back.
        double ex = test_rng_uniform(&rng, -T_PI, T_PI);
        double ey = test_rng_uniform(&rng, -T_PI / 2 + 0.3, T_PI / 2 - 0.3);
        tv3 e0 = tv3_make(ex, ey, test_rng_uniform(&rng, -T_PI, T_PI));
        ik_vec3 ie0 = i_v(e0);
        e0 = t_v(ie0);
        for (int o = 0; o < 6; o++) {
            ik_vec3 e = ik_mat3_to_euler(r, t_orders[o]);
            worst_add(&wr, t_euler_in_range(e) ? 0 : 1, "%s r=%s#%d e=" VF, t_order_names[o],
                      i < T_EDGES ? "edge" : "random", i, VA(e));
            worst_add(&wm[o], tm3_dist(t_m(ik_mat3_from_euler(e, t_orders[o])), t_m(r)),
                      "r=%s#%d e=" VF, i < T_EDGES ? "edge" : "random", i, VA(e));
            ik_mat3 m0 = i_m(t_euler_ref(e0, o));
            ik_vec3 e1 = ik_mat3_to_euler(m0, t_orders[o]);
            double d = fmax(t_angle_diff(D(e1.x), e0.x),
                            fmax(fabs(D(e1.y) - e0.y), t_angle_diff(D(e1.z), e0.z)));
            worst_add(&wa[o], d, "e=" VF " -> " VF, VA(e0), VA(e1));
        }
    }
    WORST(wr, 0, "ik_mat3_to_euler: e.x, e.z in (-pi, pi], e.y in [-pi/2, pi/2]");
    for (int o = 0; o < 6; o++) {
        char what[96];
        snprintf(what, sizeof what, "ik_mat3_from_euler(ik_mat3_to_euler(R, %s)) = R",
                 t_order_names[o]);
        WORST(wm[o], T_TOL, what);
        snprintf(what, sizeof what, "ik_mat3_to_euler(ik_mat3_from_euler(e, %s)) = e",
                 t_order_names[o]);
        WORST(wa[o], T_TOL, what);
    }
}

static void test_euler_gimbal(void)
{
    test_rng rng = { 25 };
    // Exact gimbal lock: the middle rotation has cos = 0, sin = +-1 exactly.
    for (int o = 0; o < 6; o++) {
        const int *ax = t_order_axes[o];
        for (int i = 0; i < 40; i++) {
            double sgn = i % 2 ? -1 : 1;
            double x = i < 4 ? 0 : test_rng_uniform(&rng, -T_PI, T_PI);
            double z = i < 4 ? (i < 2 ? 0 : 1) : test_rng_uniform(&rng, -T_PI, T_PI);
            tm3 m = tm3_mul(tm3_mul(tm3_elem(ax[0], cos(x), sin(x)), tm3_elem(ax[1], 0, sgn)),
                            tm3_elem(ax[2], cos(z), sin(z)));
            ik_mat3 r = i_m(m);
            ik_vec3 e = ik_mat3_to_euler(r, t_orders[o]);
            tm3 back = t_m(ik_mat3_from_euler(e, t_orders[o]));
            expect(__LINE__,
                   t_euler_in_range(e) && fabs(D(e.y) - sgn * T_PI / 2) <= T_TOL && e.z == 0,
                   "gimbal lock %s (x %.17g, y %+g pi/2, z %.17g): e = " VF
                   ", want e.y = %+g pi/2, e.z = 0",
                   t_order_names[o], x, sgn, z, VA(e), sgn);
            expect(__LINE__, tm3_dist(back, t_m(r)) <= T_TOL,
                   "gimbal lock %s (x %.17g, y %+g pi/2, z %.17g): from_euler(to_euler(R)) "
                   "differs from R by %.3g",
                   t_order_names[o], x, sgn, z, tm3_dist(back, t_m(r)));
        }
    }
    // Near lock: e.y = +-(pi/2 - d). The matrix must still come back.
    static const double offs[] = { 1e-4, 1e-6, 1e-9, 1e-12 };
    for (int o = 0; o < 6; o++)
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 8; i++) {
                double sgn = i % 2 ? -1 : 1;
                double ex = test_rng_uniform(&rng, -T_PI, T_PI);
                tv3 e0 =
                    tv3_make(ex, sgn * (T_PI / 2 - offs[k]), test_rng_uniform(&rng, -T_PI, T_PI));
                ik_mat3 r = i_m(t_euler_ref(e0, o));
                ik_vec3 e = ik_mat3_to_euler(r, t_orders[o]);
                double d = tm3_dist(t_m(ik_mat3_from_euler(e, t_orders[o])), t_m(r));
                expect(__LINE__, t_euler_in_range(e) && d <= T_TOL,
                       "near lock %s e0 = " VF ": e = " VF ", from_euler(to_euler(R)) differs "
                       "from R by %.3g",
                       t_order_names[o], VA(e0), VA(e), d);
            }
}

// ---- slerp -------------------------------------------------------------------------------------

// Checks slerp(a, b, t) for one pair: the endpoints, the constant angular speed along the
// shorter arc, b and -b alike (if check_neg: not when a.b is 0 to rounding, where both arcs are
// equally short), unit result. Accumulates into w[0..4].
static void t_slerp_case(t_worst *w, ik_quat a, ik_quat b, const double *ts, int nt, int check_neg)
{
    tq da = t_q(a), db = t_q(b);
    double th = tq_angle(da, db);
    ik_quat bn = ik_quat_make(-b.x, -b.y, -b.z, -b.w);
    ik_quat s0 = ik_quat_slerp(a, b, 0), s1 = ik_quat_slerp(a, b, 1);
    worst_add(&w[0], fmax(tq_angle(t_q(s0), da), tq_angle(t_q(s1), db)),
              "a=" QF " b=" QF " (angle %.17g)", QA(a), QA(b), th);
    for (int i = 0; i < nt; i++) {
        ik_real t = (ik_real)ts[i];
        tq s = t_q(ik_quat_slerp(a, b, t)), sn = t_q(ik_quat_slerp(a, bn, t));
        double ta = fabs(D(t)) * th, tb = fabs(1 - D(t)) * th;
        // distances along the great circle, folded back into [0, pi] as rotation angles
        if (ta > T_PI)
            ta = 2 * T_PI - ta;
        if (tb > T_PI)
            tb = 2 * T_PI - tb;
        worst_add(&w[1], fmax(fabs(tq_angle(da, s) - ta), fabs(tq_angle(s, db) - tb)),
                  "a=" QF " b=" QF " (angle %.17g) t=%.17g s=" QF, QA(a), QA(b), th, D(t), QA(s));
        if (check_neg)
            worst_add(&w[2], tq_angle(s, sn), "a=" QF " b=" QF " t=%.17g", QA(a), QA(b), D(t));
        worst_add(&w[3], tq_unit_err(s), "a=" QF " b=" QF " t=%.17g", QA(a), QA(b), D(t));
        worst_add(&w[4], tq_finite(s) && tq_finite(sn) ? 0 : 1, "a=" QF " b=" QF " t=%.17g", QA(a),
                  QA(b), D(t));
    }
}

static void test_slerp(void)
{
    test_rng rng = { 26 };
    t_worst w[5], wn[5], wfar[5], wext;
    for (int i = 0; i < 5; i++) {
        worst_init(&w[i]);
        worst_init(&wn[i]);
        worst_init(&wfar[i]);
    }
    worst_init(&wext);
    static const double ts[] = { 0.1, 0.25, 0.5, 0.75, 0.9, 1.0 / 3 };
    const int nt = (int)(sizeof ts / sizeof ts[0]);
    for (int i = 0; i < T_N; i++) {
        ik_quat a = test_rng_quat(&rng), b = test_rng_quat(&rng);
        double t1 = test_rng_uniform(&rng, 0, 1);
        t_slerp_case(w, a, b, &t1, 1, 1);
        if (i < 1000)
            t_slerp_case(w, a, b, ts, nt, 1);
    }
    // Small, near-pi and exactly-pi angles between a and b = a * Rot(n, angle), b = a, b = -a.
    static const double angles[] = { 0, 1e-12, 1e-8, 1e-4, 1e-2, 0.05, 0.3, T_PI - 1e-8, T_PI };
    for (int i = 0; i < 50; i++)
        for (size_t k = 0; k < sizeof angles / sizeof angles[0]; k++) {
            ik_quat a = test_rng_quat(&rng);
            tv3 n = i < 3 ? t_axis(i) : t_rng_unit(&rng);
            ik_quat b = i_q(tq_mul(t_q(a), tq_axis_angle(n, angles[k])));
            // a.b = cos(angle / 2): its sign is decided in double at pi - 1e-8 (5e-9 >> 1e-16) but
            // not at pi, nor in float (5e-9 < FLT_EPSILON)
            int neg = angles[k] < T_PI - 1e-8 || (angles[k] < T_PI && sizeof(ik_real) == 8);
            t_slerp_case(angles[k] >= T_PI - 1e-8 ? wfar : wn, a, b, ts, nt, neg);
            if (angles[k] >= T_PI - 1e-8)
                continue;
            // extrapolation: t = -0.5 and 1.5 stay on the same great circle
            static const double tx[] = { -0.5, 1.5 };
            t_worst tmp[5];
            for (int j = 0; j < 5; j++)
                worst_init(&tmp[j]);
            t_slerp_case(tmp, a, b, tx, 2, 1);
            worst_add(&wext, tmp[1].err, "%s", tmp[1].where);
        }
    WORST(w[0], T_TOL, "ik_quat_slerp endpoints t = 0, 1");
    WORST(w[1], T_TOL, "ik_quat_slerp constant angular speed: angle(a, s(t)) = t angle(a, b)");
    WORST(w[2], T_TOL, "ik_quat_slerp(a, b, t) = ik_quat_slerp(a, -b, t) (shorter arc)");
    WORST(w[3], T_TOL, "ik_quat_slerp unit");
    WORST(w[4], 0, "ik_quat_slerp finite");
    WORST(wn[0], T_TOL, "ik_quat_slerp endpoints at angles 0 .. 0.3");
    WORST(wn[1], T_TOL, "ik_quat_slerp constant speed at angles 0 .. 0.3");
    WORST(wn[2], T_TOL, "ik_quat_slerp(a, b, t) = ik_quat_slerp(a, -b, t) at angles 0 .. 0.3");
    WORST(wn[3], T_TOL, "ik_quat_slerp unit at angles 0 .. 0.3");
    WORST(wn[4], 0, "ik_quat_slerp finite at angles 0 .. 0.3");
    WORST(wfar[0], T_TOL, "ik_quat_slerp endpoints at angles pi - 1e-8, pi");
    WORST(wfar[1], T_TOL, "ik_quat_slerp constant speed at angles pi - 1e-8, pi");
    WORST(wfar[2], T_TOL, "ik_quat_slerp(a, b, t) = ik_quat_slerp(a, -b, t) at angle pi - 1e-8");
    WORST(wfar[3], T_TOL, "ik_quat_slerp unit at angles pi - 1e-8, pi");
    WORST(wfar[4], 0, "ik_quat_slerp finite at angles pi - 1e-8, pi");
    WORST(wext, T_TOL, "ik_quat_slerp extrapolation t = -0.5, 1.5");
    // Non-unit inputs are normalized.
    ik_quat a = i_q(tq_axis_angle(tv3_unit(tv3_make(1, 2, 2)), 0.4));
    ik_quat b = i_q(tq_axis_angle(tv3_unit(tv3_make(-1, 0, 2)), 1.3));
    ik_quat a2 = ik_quat_make(a.x * 3, a.y * 3, a.z * 3, a.w * 3);
    ik_quat b2 =
        ik_quat_make(b.x * IK_R(0.25), b.y * IK_R(0.25), b.z * IK_R(0.25), b.w * IK_R(0.25));
    tq s = t_q(ik_quat_slerp(a2, b2, IK_R(0.3))), s1 = t_q(ik_quat_slerp(a, b, IK_R(0.3)));
    CHECK(tq_angle(s, s1) <= T_TOL && tq_unit_err(s) <= T_TOL);
}

// ---- single-axis interpolation -----------------------------------------------------------------

static void test_interpolate_axis(void)
{
    test_rng rng = { 27 };
    t_worst wend, wpath, worth, wslerp, wfin;
    worst_init(&wend);
    worst_init(&wpath);
    worst_init(&worth);
    worst_init(&wslerp);
    worst_init(&wfin);
    static const double edge_th[] = { 0, 1e-8, T_PI - 1e-8, T_PI };
    static const double ss[] = { 0, 1, 0.25, 0.5, 0.75, 0.1 };
    for (int i = 0; i < 3000 + 4 * 40; i++) {
        tv3 n;
        double th;
        if (i < 3000) {
            n = t_rng_unit(&rng);
            th = test_rng_uniform(&rng, 0, T_PI);
        } else {
            int c = i - 3000;
            n = c / 4 < 3 ? t_axis(c / 4) : t_rng_unit(&rng);
            th = edge_th[c % 4];
        }
        ik_mat3 r0 = (i % 5 == 0) ? ik_mat3_identity() : i_m(tm3_from_tq(t_q(test_rng_quat(&rng))));
        ik_mat3 rg = i_m(tm3_mul(tm3_rot(n, th), t_m(r0)));
        // The reference path from the actual inputs: rg r0^T = Rot(nr, thr), thr in [0, pi].
        tm3 d0 = t_m(r0), dg = t_m(rg);
        tq rel = tq_from_tm3(tm3_mul(dg, tm3_transpose(d0)));
        double thr = tq_rot_angle(rel);
        tv3 nr = tv3_len(tq_vec(rel)) > 0 ? tv3_unit(tq_vec(rel)) : t_axis(0);
        // Within rounding of a half turn the axis sign is undecided: accept either path.
        int ambiguous = T_PI - thr < TOL(1e-12, 1e-4);
        ik_quat q0 = ik_quat_from_mat3(r0), qg = ik_quat_from_mat3(rg);
        for (int k = 0; k < 7; k++) {
            double sd = k < 6 ? ss[k] : test_rng_uniform(&rng, 0, 1);
            ik_real s = (ik_real)sd;
            tm3 r = t_m(ik_mat3_interpolate_axis(r0, rg, s));
            worst_add(&wfin, tm3_finite(r) ? 0 : 1, "n=" VF " theta=%.17g s=%.17g", VA(n), th,
                      D(s));
            if (k == 0)
                worst_add(&wend, tm3_dist(r, d0), "R(0): n=" VF " theta=%.17g", VA(n), th);
            if (k == 1)
                worst_add(&wend, tm3_dist(r, dg), "R(1): n=" VF " theta=%.17g", VA(n), th);
            double e = tm3_dist(r, tm3_mul(tm3_rot(nr, D(s) * thr), d0));
            if (ambiguous)
                e = fmin(e, tm3_dist(r, tm3_mul(tm3_rot(tv3_scale(nr, -1), D(s) * thr), d0)));
            worst_add(&wpath, e, "n=" VF " theta=%.17g s=%.17g", VA(n), th, D(s));
            worst_add(&worth, fmax(tm3_orth_err(r), fabs(tm3_det(r) - 1)),
                      "n=" VF " theta=%.17g s=%.17g", VA(n), th, D(s));
            if (!ambiguous) {
                tm3 sl = t_m(ik_quat_to_mat3(ik_quat_slerp(q0, qg, s)));
                worst_add(&wslerp, tm3_dist(r, sl), "n=" VF " theta=%.17g s=%.17g", VA(n), th,
                          D(s));
            }
        }
    }
    WORST(wfin, 0, "ik_mat3_interpolate_axis finite");
    WORST(wend, T_TOL, "ik_mat3_interpolate_axis R(0) = r0, R(1) = rg");
    WORST(wpath, T_TOL, "ik_mat3_interpolate_axis R(s) = Rot(n, s theta) r0");
    WORST(worth, T_TOL, "ik_mat3_interpolate_axis R(s) is a rotation");
    WORST(wslerp, T_TOL, "ik_mat3_interpolate_axis = slerp of the quaternions");
}

// ---- shortest arc ------------------------------------------------------------------------------

static void test_two_vectors(void)
{
    test_rng rng = { 28 };
    t_worst wto, wu, warc, wpar, wopp, wnear;
    worst_init(&wto);
    worst_init(&wu);
    worst_init(&warc);
    worst_init(&wpar);
    worst_init(&wopp);
    worst_init(&wnear);
    for (int i = 0; i < T_N; i++) {
        ik_vec3 f = t_rng_dir(&rng, 0.01, 100), t = t_rng_dir(&rng, 0.01, 100);
        ik_quat q = ik_quat_from_two_vectors(f, t);
        tv3 fh = tv3_unit(t_v(f)), th = tv3_unit(t_v(t));
        tq dq = t_q(q);
        worst_add(&wto, tv3_dist(tq_rotate(dq, fh), th), "from=" VF " to=" VF " q=" QF, VA(f),
                  VA(t), QA(q));
        worst_add(&wu, tq_unit_err(dq), "from=" VF " to=" VF, VA(f), VA(t));
        // shortest arc: the angle between the vectors, about an axis normal to both
        double want = atan2(tv3_len(tv3_cross(fh, th)), tv3_dot(fh, th));
        worst_add(&warc,
                  fmax(fabs(tq_rot_angle(dq) - want),
                       fmax(fabs(tv3_dot(tq_vec(dq), fh)), fabs(tv3_dot(tq_vec(dq), th)))),
                  "from=" VF " to=" VF " q=" QF, VA(f), VA(t), QA(q));
    }
    WORST(wto, T_TOL, "ik_quat_from_two_vectors(f, t) rotates f onto t");
    WORST(wu, T_TOL, "ik_quat_from_two_vectors unit");
    WORST(warc, T_TOL, "ik_quat_from_two_vectors is the shortest arc");

    for (int i = 0; i < 200; i++) {
        tv3 fu = i < 3 ? t_axis(i) : (i < 6 ? tv3_scale(t_axis(i - 3), -1) : t_rng_unit(&rng));
        double len = i < 6 ? 1 : test_rng_uniform(&rng, 0.01, 100);
        ik_vec3 f = i_v(tv3_scale(fu, len));
        tv3 fh = tv3_unit(t_v(f));
        // parallel: exactly (x2) and rounded (x3.7)
        ik_vec3 p2 = ik_vec3_scale(f, 2), p3 = i_v(tv3_scale(t_v(f), 3.7));
        tq q = t_q(ik_quat_from_two_vectors(f, p2));
        worst_add(&wpar, fmax(tq_rot_angle(q), tq_unit_err(q)), "from=" VF " to=" VF, VA(f),
                  VA(p2));
        q = t_q(ik_quat_from_two_vectors(f, p3));
        worst_add(&wpar, fmax(tv3_dist(tq_rotate(q, fh), tv3_unit(t_v(p3))), tq_unit_err(q)),
                  "from=" VF " to=" VF, VA(f), VA(p3));
        // exactly opposite: a half turn about ik_vec3_any_perpendicular(from)
        ik_vec3 o2 = ik_vec3_scale(f, -2);
        ik_quat qo = ik_quat_from_two_vectors(f, o2);
        ik_quat half = ik_quat_from_axis_angle(ik_vec3_any_perpendicular(f), IK_PI);
        worst_add(
            &wopp,
            fmax(fmax(tv3_dist(tq_rotate(t_q(qo), fh), tv3_scale(fh, -1)), tq_unit_err(t_q(qo))),
                 tq_angle(t_q(qo), t_q(half))),
            "from=" VF " to=" VF " q=" QF, VA(f), VA(o2), QA(qo));
        // rounded opposite (x -3.7) and within 1e-8 rad of opposite
        ik_vec3 o3 = i_v(tv3_scale(t_v(f), -3.7));
        q = t_q(ik_quat_from_two_vectors(f, o3));
        worst_add(&wnear, fmax(tv3_dist(tq_rotate(q, fh), tv3_unit(t_v(o3))), tq_unit_err(q)),
                  "from=" VF " to=" VF " q=" QF, VA(f), VA(o3), QA(q));
        tv3 perp = tv3_unit(tv3_cross(fh, t_rng_unit(&rng)));
        for (int k = 0; k < 2; k++) {
            double d = k ? 1e-8 : 1e-6;
            ik_vec3 to = i_v(tv3_scale(tv3_add(tv3_scale(fh, -cos(d)), tv3_scale(perp, sin(d))),
                                       test_rng_uniform(&rng, 0.01, 100)));
            q = t_q(ik_quat_from_two_vectors(f, to));
            worst_add(&wnear, fmax(tv3_dist(tq_rotate(q, fh), tv3_unit(t_v(to))), tq_unit_err(q)),
                      "from=" VF " to=" VF " (%g rad from opposite) q=" QF, VA(f), VA(to), d,
                      QA(ik_quat_from_two_vectors(f, to)));
        }
    }
    // Rounded opposite vectors close to a coordinate axis: from = axis + small (1e-1 .. 1e-7)
    // off-axis parts, to = -k from rounded. a x b is then pure rounding noise, often nearly
    // parallel to a, which a single projection onto a's normal plane does not clean up.
    t_worst wax;
    worst_init(&wax);
    for (int i = 0; i < 3000; i++) {
        double sm = pow(10, test_rng_uniform(&rng, -7, -1));
        double u = sm * test_rng_uniform(&rng, -1, 1), w = sm * test_rng_uniform(&rng, -1, 1);
        double k = test_rng_uniform(&rng, 1, 10);
        tv3 fd = i % 3 == 0   ? tv3_make(1, u, w)
                 : i % 3 == 1 ? tv3_make(u, 1, w)
                              : tv3_make(u, w, 1);
        ik_vec3 f = i_v(fd), to = i_v(tv3_scale(t_v(i_v(fd)), -k));
        tq q = t_q(ik_quat_from_two_vectors(f, to));
        worst_add(&wax,
                  fmax(tv3_dist(tq_rotate(q, tv3_unit(t_v(f))), tv3_unit(t_v(to))), tq_unit_err(q)),
                  "from=" VF " to=" VF " q=" QF, VA(f), VA(to), QA(q));
    }
    WORST(wax, T_TOL, "ik_quat_from_two_vectors of rounded opposite vectors near an axis");
    WORST(wpar, T_TOL, "ik_quat_from_two_vectors of parallel vectors");
    WORST(wopp, T_TOL,
          "ik_quat_from_two_vectors of opposite vectors: half turn about "
          "ik_vec3_any_perpendicular(from)");
    WORST(wnear, T_TOL, "ik_quat_from_two_vectors within 1e-6 .. 1e-8 rad of opposite");

    // A zero vector gives the identity.
    ik_vec3 v = ik_vec3_make(1, 2, 3);
    ik_quat z1 = ik_quat_from_two_vectors(ik_vec3_zero(), v);
    ik_quat z2 = ik_quat_from_two_vectors(v, ik_vec3_zero());
    ik_quat z3 = ik_quat_from_two_vectors(ik_vec3_zero(), ik_vec3_zero());
    CHECK(z1.x == 0 && z1.y == 0 && z1.z == 0 && D(z1.w) == 1);
    CHECK(z2.x == 0 && z2.y == 0 && z2.z == 0 && D(z2.w) == 1);
    CHECK(z3.x == 0 && z3.y == 0 && z3.z == 0 && D(z3.w) == 1);
}

// ---- swing-twist -------------------------------------------------------------------------------

static void test_swing_twist(void)
{
    test_rng rng = { 29 };
    t_worst wprod, wtw, wsw, wu;
    worst_init(&wprod);
    worst_init(&wtw);
    worst_init(&wsw);
    worst_init(&wu);
    for (int i = 0; i < T_N + 200; i++) {
        ik_vec3 axis = i < 3 ? i_v(t_axis(i)) : t_rng_dir(&rng, 0.01, 100);
        tv3 ah = tv3_unit(t_v(axis));
        ik_quat q;
        int c = i - T_N;
        if (c < 0) {
            q = test_rng_quat(&rng);
        } else if (c < 50) { // pure twist
            q = ik_quat_from_axis_angle(axis, (ik_real)test_rng_uniform(&rng, -T_PI, T_PI));
        } else if (c < 100) { // pure swing
            tv3 p = tv3_unit(tv3_cross(ah, t_rng_unit(&rng)));
            q = i_q(tq_axis_angle(p, test_rng_uniform(&rng, 0, T_PI)));
        } else if (c < 150) { // half-turn swing then a twist
            tv3 p = tv3_unit(tv3_cross(ah, t_rng_unit(&rng)));
            q = i_q(tq_mul(tq_axis_angle(p, T_PI),
                           tq_axis_angle(ah, test_rng_uniform(&rng, -T_PI, T_PI))));
        } else { // twist by nearly a half turn
            q = i_q(tq_mul(tq_axis_angle(tv3_unit(tv3_cross(ah, t_rng_unit(&rng))), 0.5),
                           tq_axis_angle(ah, T_PI - 1e-8)));
        }
        ik_quat sw, tw;
        ik_quat_swing_twist(q, axis, &sw, &tw);
        tq s = t_q(sw), t = t_q(tw);
        worst_add(&wprod, tq_angle(tq_mul(s, t), t_q(q)), "q=" QF " axis=" VF, QA(q), VA(axis));
        worst_add(&wtw, tv3_len(tv3_cross(tq_vec(t), ah)), "q=" QF " axis=" VF " twist=" QF, QA(q),
                  VA(axis), QA(tw));
        worst_add(&wsw, fabs(tv3_dot(tq_vec(s), ah)), "q=" QF " axis=" VF " swing=" QF, QA(q),
                  VA(axis), QA(sw));
        worst_add(&wu, fmax(tq_unit_err(s), tq_unit_err(t)), "q=" QF " axis=" VF, QA(q), VA(axis));
    }
    WORST(wprod, T_TOL, "swing * twist = q");
    WORST(wtw, T_TOL, "twist is about twist_axis");
    WORST(wsw, T_TOL, "swing axis is perpendicular to twist_axis");
    WORST(wu, T_TOL, "swing and twist are unit");

    // A half-turn swing with no twist: twist = identity.
    ik_quat sw, tw;
    ik_quat half = ik_quat_make(1, 0, 0, 0);
    ik_quat_swing_twist(half, ik_vec3_make(0, 0, 1), &sw, &tw);
    CHECK(tq_angle(t_q(tw), tq_make(0, 0, 0, 1)) <= T_TOL && tq_angle(t_q(sw), t_q(half)) <= T_TOL);
    // Zero twist axis: twist = identity, swing = q.
    ik_quat q = i_q(tq_axis_angle(tv3_unit(tv3_make(1, -2, 3)), 1.1));
    ik_quat_swing_twist(q, ik_vec3_zero(), &sw, &tw);
    CHECK(tq_angle(t_q(tw), tq_make(0, 0, 0, 1)) <= T_TOL && tq_angle(t_q(sw), t_q(q)) <= T_TOL);
    CHECK(tq_finite(t_q(sw)) && tq_finite(t_q(tw)));
    // NULL outputs: the other output is unchanged by the missing one.
    ik_vec3 axis = ik_vec3_make(IK_R(0.3), IK_R(-1), IK_R(2));
    ik_quat sw1, tw1;
    ik_quat_swing_twist(q, axis, &sw, &tw);
    ik_quat_swing_twist(q, axis, &sw1, NULL);
    ik_quat_swing_twist(q, axis, NULL, &tw1);
    ik_quat_swing_twist(q, axis, NULL, NULL);
    CHECK(memcmp(&sw, &sw1, sizeof sw) == 0);
    CHECK(memcmp(&tw, &tw1, sizeof tw) == 0);
}

// ---- non-finite inputs -------------------------------------------------------------------------

static int t_is_identity_q(ik_quat q)
{
    return q.x == 0 && q.y == 0 && q.z == 0 && D(q.w) == 1;
}
static int t_is_zero_v(ik_vec3 v)
{
    return v.x == 0 && v.y == 0 && v.z == 0;
}

static void test_nonfinite(void)
{
    ik_real bad[3];
    bad[0] = (ik_real)NAN;
    bad[1] = (ik_real)INFINITY;
    bad[2] = -(ik_real)INFINITY;
    static const char *const bad_name[3] = { "NaN", "Inf", "-Inf" };
    ik_quat good_q = i_q(tq_axis_angle(tv3_unit(tv3_make(1, 2, 3)), 0.8));
    ik_vec3 good_v = ik_vec3_make(IK_R(0.3), IK_R(-0.2), IK_R(0.9));
    ik_mat3 good_m = ik_quat_to_mat3(good_q);
    for (int b = 0; b < 3; b++) {
        const char *bn = bad_name[b];
        for (int c = 0; c < 4; c++) {
            // a vector / quaternion with component c non-finite
            ik_vec3 v = good_v;
            ik_quat q = good_q;
            if (c == 0) {
                v.x = bad[b];
                q.x = bad[b];
            } else if (c == 1) {
                v.y = bad[b];
                q.y = bad[b];
            } else if (c == 2) {
                v.z = bad[b];
                q.z = bad[b];
            } else {
                v = ik_vec3_make(bad[b], bad[b], bad[b]);
                q.w = bad[b];
            }
            ik_quat r = ik_quat_from_axis_angle(v, IK_R(0.5));
            expect(__LINE__, t_is_identity_q(r), "ik_quat_from_axis_angle(%s axis #%d) = " QF, bn,
                   c, QA(r));
            ik_vec3 ax = ik_vec3_make(7, 7, 7);
            ik_real a = ik_quat_to_axis_angle(q, &ax);
            expect(__LINE__, a == 0 && D(ax.x) == 1 && ax.y == 0 && ax.z == 0,
                   "ik_quat_to_axis_angle(%s #%d) = %.17g, " VF ", want 0, (1, 0, 0)", bn, c, D(a),
                   VA(ax));
            r = ik_quat_from_expmap(v);
            expect(__LINE__, t_is_identity_q(r), "ik_quat_from_expmap(%s #%d) = " QF, bn, c, QA(r));
            ik_vec3 rv = ik_quat_to_expmap(q);
            expect(__LINE__, t_is_zero_v(rv), "ik_quat_to_expmap(%s #%d) = " VF, bn, c, VA(rv));
            rv = ik_expmap_reparameterize(v);
            expect(__LINE__, t_is_zero_v(rv), "ik_expmap_reparameterize(%s #%d) = " VF, bn, c,
                   VA(rv));
            tm3 m = t_m(ik_expmap_jacobian(v));
            expect(__LINE__, tm3_finite(m), "ik_expmap_jacobian(%s #%d) not finite", bn, c);
            m = t_m(ik_quat_to_mat3(q));
            expect(__LINE__, tm3_dist(m, tm3_identity()) == 0,
                   "ik_quat_to_mat3(%s #%d) is not the identity", bn, c);
            r = ik_quat_from_two_vectors(v, good_v);
            expect(__LINE__, t_is_identity_q(r), "ik_quat_from_two_vectors(%s #%d, v) = " QF, bn, c,
                   QA(r));
            r = ik_quat_from_two_vectors(good_v, v);
            expect(__LINE__, t_is_identity_q(r), "ik_quat_from_two_vectors(v, %s #%d) = " QF, bn, c,
                   QA(r));
            r = ik_quat_slerp(q, good_q, IK_R(0.3));
            expect(__LINE__, tq_finite(t_q(r)) && tq_unit_err(t_q(r)) <= T_TOL,
                   "ik_quat_slerp(%s #%d, b) = " QF, bn, c, QA(r));
            r = ik_quat_slerp(good_q, q, IK_R(0.3));
            expect(__LINE__, tq_finite(t_q(r)) && tq_unit_err(t_q(r)) <= T_TOL,
                   "ik_quat_slerp(a, %s #%d) = " QF, bn, c, QA(r));
            ik_quat sw, tw;
            ik_quat_swing_twist(q, good_v, &sw, &tw);
            expect(__LINE__, tq_finite(t_q(sw)) && tq_finite(t_q(tw)),
                   "ik_quat_swing_twist(%s #%d, axis) = " QF ", " QF, bn, c, QA(sw), QA(tw));
            ik_quat_swing_twist(good_q, v, &sw, &tw);
            expect(__LINE__, tq_finite(t_q(sw)) && tq_finite(t_q(tw)),
                   "ik_quat_swing_twist(q, %s axis #%d) = " QF ", " QF, bn, c, QA(sw), QA(tw));
            m = t_m(ik_mat3_from_euler(v, IK_EULER_ZYX));
            expect(__LINE__, tm3_dist(m, tm3_identity()) == 0,
                   "ik_mat3_from_euler(%s #%d) is not the identity", bn, c);
            ik_xform x = ik_xform_make(q, good_v);
            expect(__LINE__, t_is_identity_q(x.rot), "ik_xform_make(%s #%d rot).rot = " QF, bn, c,
                   QA(x.rot));
        }
        // slerp with a non-finite t
        ik_quat r = ik_quat_slerp(good_q, ik_quat_identity(), bad[b]);
        expect(__LINE__, tq_finite(t_q(r)) && tq_unit_err(t_q(r)) <= T_TOL,
               "ik_quat_slerp(a, b, %s) = " QF, bn, QA(r));
        r = ik_quat_from_axis_angle(good_v, bad[b]);
        expect(__LINE__, t_is_identity_q(r), "ik_quat_from_axis_angle(axis, %s) = " QF, bn, QA(r));
        // matrices with one non-finite entry
        for (int e = 0; e < 9; e++) {
            ik_mat3 m = good_m;
            m.m[e / 3][e % 3] = bad[b];
            r = ik_quat_from_mat3(m);
            expect(__LINE__, t_is_identity_q(r), "ik_quat_from_mat3(%s at [%d][%d]) = " QF, bn,
                   e / 3, e % 3, QA(r));
            for (int o = 0; o < 6; o++) {
                ik_vec3 ev = ik_mat3_to_euler(m, t_orders[o]);
                expect(__LINE__, t_is_zero_v(ev), "ik_mat3_to_euler(%s at [%d][%d], %s) = " VF, bn,
                       e / 3, e % 3, t_order_names[o], VA(ev));
            }
            tm3 ri = t_m(ik_mat3_interpolate_axis(m, good_m, IK_R(0.4)));
            tm3 rj = t_m(ik_mat3_interpolate_axis(good_m, m, IK_R(0.4)));
            expect(__LINE__, tm3_finite(ri) && tm3_finite(rj),
                   "ik_mat3_interpolate_axis with %s at [%d][%d] not finite", bn, e / 3, e % 3);
        }
        tm3 ri = t_m(ik_mat3_interpolate_axis(good_m, ik_mat3_identity(), bad[b]));
        expect(__LINE__, tm3_finite(ri), "ik_mat3_interpolate_axis(r0, rg, %s) not finite", bn);
    }
}

// ---- transforms --------------------------------------------------------------------------------

static void test_xform(void)
{
    ik_xform id = ik_xform_identity();
    CHECK(t_is_identity_q(id.rot) && t_is_zero_v(id.pos));
    ik_xform tr = ik_xform_translation(ik_vec3_make(1, -2, 3));
    CHECK(t_is_identity_q(tr.rot) && D(tr.pos.x) == 1 && D(tr.pos.y) == -2 && D(tr.pos.z) == 3);
    ik_vec3 p = ik_xform_apply(tr, ik_vec3_make(IK_R(0.5), 0, 0));
    CHECK(D(p.x) == 1.5 && D(p.y) == -2 && D(p.z) == 3);
    p = ik_xform_apply_direction(tr, ik_vec3_make(IK_R(0.5), 0, 0));
    CHECK(D(p.x) == 0.5 && p.y == 0 && p.z == 0);

    test_rng rng = { 30 };
    t_worst wmk, wap, wdir, wmul, wassoc, winv, wref;
    worst_init(&wmk);
    worst_init(&wap);
    worst_init(&wdir);
    worst_init(&wmul);
    worst_init(&wassoc);
    worst_init(&winv);
    worst_init(&wref);
    for (int i = 0; i < T_N; i++) {
        ik_quat qa = test_rng_quat(&rng), qb = test_rng_quat(&rng), qc = test_rng_quat(&rng);
        ik_vec3 pa = test_rng_vec3(&rng, -10, 10), pb = test_rng_vec3(&rng, -10, 10),
                pc = test_rng_vec3(&rng, -10, 10), x = test_rng_vec3(&rng, -10, 10);
        ik_xform a = ik_xform_make(qa, pa), b = ik_xform_make(qb, pb), c = ik_xform_make(qc, pc);
        // positions are up to ~50 long: errors are relative to that size (T_TOL * scale)
        double scale = 1 + tv3_len(t_v(pa)) + tv3_len(t_v(pb)) + tv3_len(t_v(pc)) + tv3_len(t_v(x));
        // make normalizes rot and keeps pos
        ik_xform a3 = ik_xform_make(ik_quat_make(qa.x * 3, qa.y * 3, qa.z * 3, qa.w * 3), pa);
        worst_add(&wmk,
                  fmax(tq_angle(t_q(a3.rot), t_q(qa)),
                       fmax(tq_unit_err(t_q(a3.rot)), tv3_dist(t_v(a3.pos), t_v(pa)))),
                  "q=" QF, QA(qa));
        // apply against the definition rot * p + pos
        tv3 ap = t_v(ik_xform_apply(a, x));
        tv3 want = tv3_add(tq_rotate(t_q(qa), t_v(x)), t_v(pa));
        worst_add(&wref, tv3_dist(ap, want) / scale, "#%d", i);
        // apply = apply_direction + pos; apply_direction = quat rotate
        tv3 ad = t_v(ik_xform_apply_direction(a, x));
        worst_add(&wap, tv3_dist(tv3_sub(ap, t_v(a.pos)), ad) / scale, "#%d", i);
        worst_add(&wdir, tv3_dist(ad, tq_rotate(t_q(a.rot), t_v(x))) / scale, "#%d", i);
        // (a b) x = a (b x)
        tv3 l = t_v(ik_xform_apply(ik_xform_mul(a, b), x));
        tv3 r = t_v(ik_xform_apply(a, ik_xform_apply(b, x)));
        worst_add(&wmul, tv3_dist(l, r) / scale, "#%d", i);
        // (a b) c = a (b c)
        ik_xform l3 = ik_xform_mul(ik_xform_mul(a, b), c), r3 = ik_xform_mul(a, ik_xform_mul(b, c));
        worst_add(
            &wassoc,
            fmax(tq_angle(t_q(l3.rot), t_q(r3.rot)), tv3_dist(t_v(l3.pos), t_v(r3.pos)) / scale),
            "#%d", i);
        // inverse(a) a = a inverse(a) = identity; inverse(a) (a x) = x
        ik_xform ia = ik_xform_inverse(a);
        ik_xform e1 = ik_xform_mul(ia, a), e2 = ik_xform_mul(a, ia);
        double ei = fmax(fmax(tq_rot_angle(t_q(e1.rot)), tq_rot_angle(t_q(e2.rot))),
                         fmax(tv3_len(t_v(e1.pos)), tv3_len(t_v(e2.pos))) / scale);
        ei = fmax(ei, tv3_dist(t_v(ik_xform_apply(ia, ik_xform_apply(a, x))), t_v(x)) / scale);
        worst_add(&winv, ei, "q=" QF " pos=" VF, QA(qa), VA(pa));
    }
    WORST(wmk, T_TOL, "ik_xform_make normalizes rot, keeps pos");
    WORST(wref, T_TOL, "ik_xform_apply = rot * p + pos");
    WORST(wap, T_TOL, "ik_xform_apply - pos = ik_xform_apply_direction");
    WORST(wdir, T_TOL, "ik_xform_apply_direction = rot * d");
    WORST(wmul, T_TOL, "ik_xform_apply(a * b, p) = ik_xform_apply(a, ik_xform_apply(b, p))");
    WORST(wassoc, T_TOL, "(a * b) * c = a * (b * c)");
    WORST(winv, T_TOL, "ik_xform_inverse(t) * t = t * ik_xform_inverse(t) = identity");
}

void test_math(void)
{
    RUN(test_vec3_basics);
    RUN(test_vec3_normalize);
    RUN(test_vec3_any_perpendicular);
    RUN(test_is_finite_is_unit);
    RUN(test_quat_normalize);
    RUN(test_quat_basics);
    RUN(test_axis_angle);
    RUN(test_quat_mat3);
    RUN(test_expmap);
    RUN(test_expmap_reparameterize);
    RUN(test_expmap_jacobian);
    RUN(test_mat3_basics);
    RUN(test_euler_from);
    RUN(test_euler_to);
    RUN(test_euler_gimbal);
    RUN(test_slerp);
    RUN(test_interpolate_axis);
    RUN(test_two_vectors);
    RUN(test_swing_twist);
    RUN(test_nonfinite);
    RUN(test_xform);
}
