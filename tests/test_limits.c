/* Ball-joint limits: ik_ball_limit_make, _contains and _project against an independent
   reference (the bone's direction and the twist left after the shortest arc, in double), on
   random rotations and limits, and along random smooth paths. */
#include "test.h"
#include <math.h>
#include <string.h>

void test_limits(void);

#define L_PI 3.14159265358979323846

// The limit's inputs, and its axes made here (not by ik.h).
typedef struct ref_limit {
    double x[3], y[3], z[3];
    double swing_x, swing_y, lo, hi;
    ik_ball_limit made;
} ref_limit;

// A rotation measured against a limit: swing angle, the swing's tan(angle / 4) coordinates on
// the limit's x and y axes, the twist angle in [-pi, pi].
typedef struct ref_measure {
    double swing, p[2], twist;
} ref_measure;

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void cross3(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}
static void unit3(double *a)
{
    double n = sqrt(dot3(a, a));
    a[0] /= n, a[1] /= n, a[2] /= n;
}
// q (x, y, z, w) applied to v.
static void rotate3(const double *q, const double *v, double *out)
{
    double t[3], u[3];
    cross3(q, v, t);
    t[0] *= 2, t[1] *= 2, t[2] *= 2;
    cross3(q, t, u);
    out[0] = v[0] + q[3] * t[0] + u[0];
    out[1] = v[1] + q[3] * t[1] + u[1];
    out[2] = v[2] + q[3] * t[2] + u[2];
}
static void quat_of(ik_quat r, double *q)
{
    double n;
    q[0] = (double)r.x, q[1] = (double)r.y, q[2] = (double)r.z, q[3] = (double)r.w;
    n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    q[0] /= n, q[1] /= n, q[2] /= n, q[3] /= n;
}

static void ref_make(test_rng *rng, ref_limit *l)
{
    ik_vec3 t = test_rng_vec3(rng, -1, 1), x = test_rng_vec3(rng, -1, 1);
    double d;
    int k, kind = (int)test_rng_uniform(rng, 0, 8);
    l->z[0] = (double)t.x, l->z[1] = (double)t.y, l->z[2] = (double)t.z;
    unit3(l->z);
    l->x[0] = (double)x.x, l->x[1] = (double)x.y, l->x[2] = (double)x.z;
    d = dot3(l->x, l->z);
    l->x[0] -= d * l->z[0], l->x[1] -= d * l->z[1], l->x[2] -= d * l->z[2];
    unit3(l->x);
    cross3(l->z, l->x, l->y);
    l->swing_x = test_rng_uniform(rng, 0.05, L_PI);
    l->swing_y = test_rng_uniform(rng, 0.05, L_PI);
    l->lo = test_rng_uniform(rng, -L_PI, 0.5);
    l->hi = test_rng_uniform(rng, l->lo, L_PI);
    if (kind == 0) // a circle
        l->swing_y = l->swing_x;
    if (kind == 1) // no twist limit
        l->lo = -L_PI, l->hi = L_PI;
    if (kind == 2) // swings of up to pi one way
        l->swing_x = L_PI;
    CHECK(ik_ball_limit_make(t, x, (ik_real)l->swing_x, (ik_real)l->swing_y, (ik_real)l->lo,
                             (ik_real)l->hi, &l->made) == IK_OK);
    // the axes the limit holds (made in ik_real: with x_axis near the twist axis they are
    // the rounding of an ill-conditioned difference), and its ends as ik_real
    for (k = 0; k < 3; k++) {
        l->x[k] = (double)l->made.axes.m[k][0];
        l->y[k] = (double)l->made.axes.m[k][1];
        l->z[k] = (double)l->made.axes.m[k][2];
    }
    // the ends as ik_real (the limit holds them so)
    l->swing_x = (double)(ik_real)l->swing_x, l->swing_y = (double)(ik_real)l->swing_y;
    l->lo = (double)(ik_real)l->lo, l->hi = (double)(ik_real)l->hi;
}

// The bone z's direction after r, its swing from z, and the twist of r after that swing.
static ref_measure ref_measure_of(const ref_limit *l, ik_quat r)
{
    ref_measure m;
    double q[4], d[3], a[3], s, c, arc[4], t[4];
    quat_of(r, q);
    rotate3(q, l->z, d);
    cross3(l->z, d, a);
    s = sqrt(dot3(a, a));
    c = dot3(l->z, d);
    m.swing = atan2(s, c);
    if (s > 0)
        a[0] /= s, a[1] /= s, a[2] /= s;
    m.p[0] = tan(m.swing / 4) * dot3(a, l->x);
    m.p[1] = tan(m.swing / 4) * dot3(a, l->y);
    // the shortest arc taking z to d, about a by the swing angle; the twist: arc^-1 r
    arc[0] = a[0] * sin(m.swing / 2), arc[1] = a[1] * sin(m.swing / 2);
    arc[2] = a[2] * sin(m.swing / 2), arc[3] = cos(m.swing / 2);
    t[3] = arc[3] * q[3] + dot3(arc, q);
    {
        double cr[3];
        cross3(arc, q, cr);
        t[0] = arc[3] * q[0] - q[3] * arc[0] - cr[0];
        t[1] = arc[3] * q[1] - q[3] * arc[1] - cr[1];
        t[2] = arc[3] * q[2] - q[3] * arc[2] - cr[2];
    }
    m.twist = 2 * atan2(dot3(t, l->z), t[3]);
    if (m.twist > L_PI)
        m.twist -= 2 * L_PI;
    if (m.twist < -L_PI)
        m.twist += 2 * L_PI;
    return m;
}

// How far outside the cone, radians (0 within): the swing's distance in tan(angle / 4)
// coordinates to the ellipse (p_x / a)^2 + (p_y / b)^2 = 1, a = tan(swing_y / 4), b =
// tan(swing_x / 4) (its nearest point by bisection on the Lagrange multiplier), times 4 (the
// most angle per unit there).
static double ref_cone_excess(const ref_limit *l, const ref_measure *m)
{
    double a = tan(l->swing_y / 4), b = tan(l->swing_x / 4), u = fabs(m->p[0]), v = fabs(m->p[1]);
    double lo = 0, hi = hypot(a * u, b * v) + 1, t = 0;
    int i;
    if ((u / a) * (u / a) + (v / b) * (v / b) <= 1)
        return 0;
    for (i = 0; i < 200; i++) {
        double ea, eb;
        t = (lo + hi) / 2;
        ea = a * u / (a * a + t), eb = b * v / (b * b + t);
        if (ea * ea + eb * eb > 1)
            lo = t;
        else
            hi = t;
    }
    return 4 * hypot(u - a * a * u / (a * a + t), v - b * b * v / (b * b + t));
}
static double ref_twist_excess(const ref_limit *l, const ref_measure *m)
{
    return m->twist > l->hi ? m->twist - l->hi : (m->twist < l->lo ? l->lo - m->twist : 0);
}
// The distance from a to b on the circle of angles.
static double circle_dist(double a, double b)
{
    double d = fmod(fabs(a - b), 2 * L_PI);
    return d > L_PI ? 2 * L_PI - d : d;
}
static bool quat_bits_equal(ik_quat a, ik_quat b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void test_limit_make(void)
{
    ik_ball_limit l, before;
    ik_vec3 z = ik_vec3_make(0, 0, 2), x = ik_vec3_make(1, 0, 0);
    const ik_real bad[][4] = { { -0.1, 1, -1, 1 }, { 1, 4, -1, 1 }, { 1, 1, 1, -1 },
                               { 1, 1, -4, 1 },    { 1, 1, -1, 4 }, { 1, 1, 0, 0 } };
    ik_vec3 axis;
    int i;
    memset(&l, 0x5a, sizeof l);
    before = l;
    for (i = 0; i < 5; i++) { // each bad argument leaves out untouched
        CHECK(ik_ball_limit_make(z, x, bad[i][0], bad[i][1], bad[i][2], bad[i][3], &l) ==
              IK_ERR_BAD_ARG);
        CHECK(memcmp(&l, &before, sizeof l) == 0);
    }
    CHECK(ik_ball_limit_make(ik_vec3_make(0, 0, 0), x, 1, 1, -1, 1, &l) == IK_ERR_BAD_ARG);
    CHECK(ik_ball_limit_make(ik_vec3_make(0, (ik_real)NAN, 1), x, 1, 1, -1, 1, &l) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_ball_limit_make(z, x, (ik_real)INFINITY, 1, -1, 1, &l) == IK_ERR_BAD_ARG);
    CHECK(memcmp(&l, &before, sizeof l) == 0);
    CHECK(ik_ball_limit_make(z, x, 1, 1, -1, 1, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_ball_limit_make(z, x, bad[5][0], bad[5][1], bad[5][2], bad[5][3], &l) == IK_OK);
    // the frame: z along the twist axis, x along x_axis (made perpendicular), right-handed
    CHECK(ik_ball_limit_make(ik_vec3_make(0, 1, 0), ik_vec3_make(1, 1, 0), 1, 1, -1, 1, &l) ==
          IK_OK);
    axis = ik_mat3_mul_vec3(l.axes, ik_vec3_make(0, 0, 1));
    CHECK_NEAR(axis.y, 1, TOL(1e-15, 1e-6));
    axis = ik_mat3_mul_vec3(l.axes, ik_vec3_make(1, 0, 0));
    CHECK_NEAR(axis.x, 1, TOL(1e-15, 1e-6));
    axis = ik_mat3_mul_vec3(l.axes, ik_vec3_make(0, 1, 0));
    CHECK_NEAR(axis.z, -1, TOL(1e-15, 1e-6));
    // x_axis parallel to the twist axis, or zero: some perpendicular
    CHECK(ik_ball_limit_make(z, ik_vec3_make(0, 0, 3), 1, 1, -1, 1, &l) == IK_OK);
    CHECK_NEAR(ik_mat3_mul_vec3(l.axes, ik_vec3_make(1, 0, 0)).z, 0, TOL(1e-15, 1e-6));
    CHECK(ik_ball_limit_make(z, ik_vec3_make(0, 0, 0), 1, 1, -1, 1, &l) == IK_OK);
    CHECK(ik_ball_limit_contains(NULL, ik_quat_identity()) == false);
    CHECK(quat_bits_equal(ik_ball_limit_project(NULL, ik_quat_make(1, 2, 3, 4)),
                          ik_quat_make(1, 2, 3, 4)));
}

// Random rotations against random limits: what is within stays (to the bit), the result is
// within, projecting again changes nothing, and the result is the nearest in the limit's
// coordinates (no point of the ellipse nearer the swing, the nearer end of the twist range).
static void test_limit_project_random(void)
{
    test_rng rng = { 1001 };
    ref_limit l;
    double worst_excess = 0, worst_scaled = 0, worst_near = 0;
    int i, k, inside = 0, outside = 0, bad_stay = 0, bad_idem = 0, bad_contains = 0;
    const int count = 1000000;
    for (i = 0; i < count; i++) {
        ik_quat r, p;
        ref_measure m, mp;
        bool within;
        if (i % 100 == 0)
            ref_make(&rng, &l);
        r = test_rng_quat(&rng);
        if (i % 7 == 0) // near the identity: mostly within
            r = ik_quat_normalize(ik_quat_make(r.x / 4, r.y / 4, r.z / 4, r.w < 0 ? -1 : 1));
        m = ref_measure_of(&l, r);
        if (m.swing > L_PI - 1e-6)
            continue; // (the reference's twist is undefined at a half-turn swing)
        within = ref_cone_excess(&l, &m) == 0 && ref_twist_excess(&l, &m) == 0;
        p = ik_ball_limit_project(&l.made, r);
        if (within && m.twist > l.lo + 1e-9 && m.twist < l.hi - 1e-9 &&
            (m.p[0] / tan(l.swing_y / 4)) * (m.p[0] / tan(l.swing_y / 4)) +
                    (m.p[1] / tan(l.swing_x / 4)) * (m.p[1] / tan(l.swing_x / 4)) <
                1 - TOL(1e-9, 1e-4)) {
            inside++;
            bad_stay += !quat_bits_equal(p, r) || !ik_ball_limit_contains(&l.made, r);
            continue;
        }
        outside++;
        bad_contains += !ik_ball_limit_contains(&l.made, p);
        // (-ffast-math may regroup the two calls' arithmetic differently: within rounding)
        bad_idem += TEST_FAST_MATH
                        ? test_quat_angle(ik_ball_limit_project(&l.made, p), p) > TOL(1e-13, 1e-5)
                        : !quat_bits_equal(ik_ball_limit_project(&l.made, p), p);
        mp = ref_measure_of(&l, p);
        if (mp.swing > L_PI - 1e-6)
            continue;
        // (rounding near a half-turn swing grows as 1 / cos(swing / 2): scaled by that too)
        worst_excess =
            fmax(worst_excess, fmax(ref_cone_excess(&l, &mp), ref_twist_excess(&l, &mp)));
        worst_scaled = fmax(worst_scaled, cos(mp.swing / 2) * fmax(ref_cone_excess(&l, &mp),
                                                                   ref_twist_excess(&l, &mp)));
        // nearest: 64 points of the ellipse are no nearer than the answer's swing; the twist
        // went to the nearer end
        if (ref_cone_excess(&l, &m) > 0) {
            double a = tan(l.swing_y / 4), b = tan(l.swing_x / 4);
            double d = hypot(m.p[0] - mp.p[0], m.p[1] - mp.p[1]);
            for (k = 0; k < 64; k++) {
                double ang = 2 * L_PI * (k + test_rng_uniform(&rng, 0, 1)) / 64;
                worst_near =
                    fmax(worst_near, d - hypot(m.p[0] - a * cos(ang), m.p[1] - b * sin(ang)));
            }
        }
        if (ref_twist_excess(&l, &m) > 0)
            worst_near =
                fmax(worst_near, circle_dist(m.twist, mp.twist) -
                                     fmin(circle_dist(m.twist, l.lo), circle_dist(m.twist, l.hi)));
    }
    printf("  ball limits: %d rotations within (kept to the bit), %d projected; largest excess "
           "%.2g (times cos(swing / 2) %.2g), largest nearer-point gap %.2g\n",
           inside, outside, worst_excess, worst_scaled, worst_near);
    CHECK(inside > count / 10 && outside > count / 2);
    CHECK(bad_stay == 0);
    CHECK(bad_contains == 0);
    CHECK(bad_idem == 0);
    CHECK(worst_excess <= TOL(1e-12, 1e-2));
    // (within to the slack the test allows, 32 epsilon / cos(swing / 2) in tan(swing / 4), times
    // at most 4 radians per unit there)
    CHECK(worst_scaled <= TOL(1e-13, 4e-5));
    CHECK(worst_near <= TOL(1e-12, 2e-5));
}

// Edge cases: half-turn swings (twist undefined), zero and non-finite quaternions, a limit with
// no swing, one that allows everything, a twist range of one angle, cones narrower than rounding.
static void test_limit_edges(void)
{
    ik_ball_limit none, all, point;
    ik_vec3 z = ik_vec3_make(0, 0, 1), x = ik_vec3_make(1, 0, 0);
    ik_quat r, p;
    test_rng rng = { 77 };
    int i;
    CHECK(ik_ball_limit_make(z, x, 0, 0, -1, 1, &none) == IK_OK);
    CHECK(ik_ball_limit_make(z, x, (ik_real)L_PI, (ik_real)L_PI, (ik_real)-L_PI, (ik_real)L_PI,
                             &all) == IK_OK);
    CHECK(ik_ball_limit_make(z, x, 1, 0.5, 0.25, 0.25, &point) == IK_OK);
    for (i = 0; i < 1000; i++) {
        double t;
        ik_vec3 axis;
        r = test_rng_quat(&rng);
        // everything is within "all", to the bit
        CHECK(quat_bits_equal(ik_ball_limit_project(&all, r), r));
        // no swing: the result turns about z only, by at most 1
        p = ik_ball_limit_project(&none, r);
        t = (double)ik_quat_to_axis_angle(p, &axis);
        CHECK(t <= 1 + 1e-6 && (t < 1e-9 || fabs((double)axis.z) > 1 - 1e-6));
        // one twist angle: the result's twist is it
        p = ik_ball_limit_project(&point, r);
        CHECK(ik_ball_limit_contains(&point, p));
    }
    // half-turn swings (w = z = 0): projected, finite, within
    for (i = 0; i < 100; i++) {
        double a = test_rng_uniform(&rng, 0, 2 * L_PI);
        r = ik_quat_make((ik_real)cos(a), (ik_real)sin(a), 0, 0);
        p = ik_ball_limit_project(&point, r);
        CHECK(ik_quat_is_unit(p, TOL(1e-14, 1e-6)) && ik_ball_limit_contains(&point, p));
    }
    // cones far narrower than rounding (1e-12 x 2e-12 rad, 1e-30 rad each way): unit, within
    for (i = 0; i < 2000; i++) {
        ik_ball_limit tiny;
        ik_real a = i % 2 ? (ik_real)1e-30 : (ik_real)1e-12;
        CHECK(ik_ball_limit_make(z, x, a, i % 2 ? a : 2 * a, -1, 1, &tiny) == IK_OK);
        p = ik_ball_limit_project(&tiny, test_rng_quat(&rng));
        CHECK(ik_quat_is_unit(p, TOL(1e-14, 1e-6)) && ik_ball_limit_contains(&tiny, p));
    }
    // one tiny half-angle beside a normal one, or both tiny: a tilt that way is outside, and its
    // projection takes the bone to the twist axis (to the cone's size)
    for (i = 0; i < 4; i++) {
        ik_ball_limit thin;
        ik_real tiny = i < 2 ? (ik_real)TOL(1e-200, 1e-30) : (ik_real)TOL(1e-310, 1e-40);
        ik_vec3 bone;
        CHECK(ik_ball_limit_make(z, x, tiny, i % 2 ? tiny : (ik_real)1.2, -1, 1, &thin) == IK_OK);
        r = ik_quat_from_axis_angle(ik_vec3_make(0, 1, 0), (ik_real)1.5); // (tilts z toward x)
        CHECK(!ik_ball_limit_contains(&thin, r));
        p = ik_ball_limit_project(&thin, r);
        bone = ik_quat_rotate(p, z);
        CHECK(ik_ball_limit_contains(&thin, p) && (double)bone.z > 1 - TOL(1e-12, 1e-6));
    }
    // twist ranges ending at -pi or pi (float's IK_PI / 2 is beyond pi / 2): projections within
    for (i = 0; i < 2000; i++) {
        ik_ball_limit end;
        CHECK(ik_ball_limit_make(z, x, 1, 1, i % 2 ? (ik_real)0.5 : -IK_PI,
                                 i % 2 ? IK_PI : (ik_real)-0.5, &end) == IK_OK);
        CHECK(ik_ball_limit_contains(&end, ik_ball_limit_project(&end, test_rng_quat(&rng))));
    }
    // zero and non-finite: the identity's projection
    p = ik_ball_limit_project(&point, ik_quat_make(0, 0, 0, 0));
    CHECK(ik_quat_is_unit(p, TOL(1e-14, 1e-6)) && ik_ball_limit_contains(&point, p));
    p = ik_ball_limit_project(&point, ik_quat_make((ik_real)NAN, 0, 0, 1));
    CHECK(ik_quat_is_unit(p, TOL(1e-14, 1e-6)) && ik_ball_limit_contains(&point, p));
    CHECK(!ik_ball_limit_contains(&point, ik_quat_identity()));
    CHECK(ik_ball_limit_contains(&none, ik_quat_identity()));
    // a non-unit quaternion within: normalized
    p = ik_ball_limit_project(&all, ik_quat_make(0, 0, 0, 2));
    CHECK(TEST_FAST_MATH ? test_quat_angle(p, ik_quat_identity()) < 1e-6
                         : quat_bits_equal(p, ik_quat_identity()));
}

// Along random smooth paths, a step of the result is at most a small multiple of the input's,
// 1 / cos(swing / 2) times a constant, except where the path crosses a set where two answers
// are equally near: a twist opposite the middle of the range, a swing of pi.
static void test_limit_continuity(void)
{
    test_rng rng = { 4242 };
    ref_limit l;
    double worst = 0;
    int path, k, steps = 0;
    for (path = 0; path < 2000; path++) {
        ik_quat start = test_rng_quat(&rng), prev_in, prev_out;
        ik_vec3 w = test_rng_vec3(&rng, -1, 1);
        ref_measure prev_m;
        double cut;
        ref_make(&rng, &l);
        cut = (l.lo + l.hi) / 2 + L_PI;
        prev_in = start;
        prev_out = ik_ball_limit_project(&l.made, start);
        prev_m = ref_measure_of(&l, start);
        for (k = 1; k <= 400; k++) {
            ik_vec3 v = ik_vec3_scale(w, (ik_real)(k * 0.004));
            ik_quat in = ik_quat_mul(start, ik_quat_from_expmap(v));
            ik_quat out = ik_ball_limit_project(&l.made, in);
            ref_measure m = ref_measure_of(&l, in);
            double d0 = remainder(prev_m.twist - cut, 2 * L_PI);
            double d1 = remainder(m.twist - cut, 2 * L_PI);
            double n = cos(fmax(m.swing, prev_m.swing) / 2);
            double step_in = test_quat_angle(prev_in, in),
                   step_out = test_quat_angle(prev_out, out);
            bool crossed = (d0 < 0) != (d1 < 0) && fabs(d0) < 1 && fabs(d1) < 1;
            if (!crossed && n > 0.05 && step_in > 0) {
                worst = fmax(worst, step_out * n / step_in);
                steps++;
            }
            prev_in = in, prev_out = out, prev_m = m;
        }
    }
    printf("  ball limits: %d path steps, largest (result step / input step) cos(swing / 2) "
           "%.3g\n",
           steps, worst);
    CHECK(steps > 600000);
    CHECK(worst <= 2);
}

// A random chain of 2-6 joints: limited ball joints (every other one at least) and hinges with
// limits; want gets a random state within every limit (some ball joints on their boundary:
// *edge then counts them).
static int limit_chain(test_rng *rng, ik_ball_limit *limits, ik_joint *joints, ik_real *want,
                       int *edge)
{
    int n = 2 + (int)test_rng_uniform(rng, 0, 5), i, at;
    for (i = 0; i < n; i++) {
        ik_xform origin = ik_xform_translation(ik_vec3_make(0, 0, i ? (ik_real)0.5 : 0));
        if (i % 2 == 0 || test_rng_uniform(rng, 0, 1) < 0.5) {
            CHECK(ik_ball_limit_make(test_rng_vec3(rng, -1, 1), test_rng_vec3(rng, -1, 1),
                                     (ik_real)test_rng_uniform(rng, 0.2, 2.5),
                                     (ik_real)test_rng_uniform(rng, 0.2, 2.5),
                                     (ik_real)test_rng_uniform(rng, -2, 0),
                                     (ik_real)test_rng_uniform(rng, 0, 2), &limits[i]) == IK_OK);
            joints[i] = ik_joint_ball(origin);
            joints[i].limit = &limits[i];
        } else {
            joints[i] = ik_joint_revolute(origin, ik_vec3_normalize(test_rng_vec3(rng, -1, 1)));
            joints[i].lo = (ik_real)test_rng_uniform(rng, -2.5, -0.3);
            joints[i].hi = (ik_real)test_rng_uniform(rng, 0.3, 2.5);
        }
    }
    *edge = 0;
    for (i = 0, at = 0; i < n; at += ik_joint_type_dof(joints[i].type), i++) {
        ik_quat r;
        ik_vec3 v;
        if (joints[i].type != IK_JOINT_BALL) {
            want[at] = (ik_real)test_rng_uniform(rng, (double)joints[i].lo, (double)joints[i].hi);
            continue;
        }
        v = test_rng_vec3(rng, -1.5, 1.5);
        r = ik_quat_from_expmap(v);
        *edge += !ik_ball_limit_contains(joints[i].limit, r);
        v = ik_quat_to_expmap(ik_ball_limit_project(joints[i].limit, r));
        want[at] = v.x, want[at + 1] = v.y, want[at + 2] = v.z;
    }
    return n;
}

// The joints of state q outside their limits beyond rounding (ball joints: the angle to their
// projection beyond the limit's slack over cos(swing / 2), 32 epsilon in each of the swing's two
// tan(swing / 4) coordinates, 4 rad per unit there, so up to 4 sqrt(2) 32 epsilon, and 2 x 32
// epsilon of twist: 245 epsilon (float 2.9e-5), and q's rounding; hinges: beyond lo, hi).
static int limit_outside(const ik_joint *joints, int n, const ik_real *q)
{
    int j, at, outside = 0;
    for (j = 0, at = 0; j < n; at += ik_joint_type_dof(joints[j].type), j++)
        if (joints[j].type == IK_JOINT_BALL) {
            const ik_ball_limit *lim = joints[j].limit;
            ik_quat r = ik_quat_from_expmap(ik_vec3_make(q[at], q[at + 1], q[at + 2]));
            ik_vec3 z = ik_vec3_make(lim->axes.m[0][2], lim->axes.m[1][2], lim->axes.m[2][2]);
            double half_cos = sqrt(fmax(0, (1 + (double)ik_vec3_dot(z, ik_quat_rotate(r, z))) / 2));
            outside += test_quat_angle(r, ik_ball_limit_project(lim, r)) >
                       TOL(1e-13, 3e-5) / fmax(half_cos, 1e-3);
        } else {
            outside += !(q[at] >= joints[j].lo && q[at] <= joints[j].hi);
        }
    return outside;
}

// CCD on 10^4 random chains of limited ball joints and hinges with limits, from random starts
// (outside the limits too: brought in first): every returned state is within every limit;
// targets made from states within the limits are reached (the rate is printed: CCD can stall on
// a boundary).
static void test_limit_ccd(void)
{
    test_rng rng = { 9090 };
    ik_ball_limit limits[6];
    ik_joint joints[6];
    int c, i, reached = 0, outside = 0, count = 10000;
    for (c = 0; c < count; c++) {
        int n, dof, edge;
        ik_real q[18], want[18];
        unsigned char scratch[8192];
        ik_chain chain;
        ik_target target;
        ik_xform goal;
        ik_solve_info info;
        ik_ccd_opts o = ik_default_ccd_opts();
        n = limit_chain(&rng, limits, joints, want, &edge);
        chain = ik_chain_make(joints, n, ik_xform_translation(ik_vec3_make(0, 0, (ik_real)0.5)));
        CHECK(ik_chain_validate(&chain) == IK_OK);
        dof = ik_chain_dof(&chain);
        ik_chain_fk(&chain, want, NULL, &goal);
        target = c % 3 == 0 ? ik_target_pose(goal) : ik_target_position(goal.pos);
        for (i = 0; i < dof; i++)
            q[i] = (ik_real)test_rng_uniform(&rng, -3, 3);
        o.max_sweeps = 300;
        CHECK(ik_ccd_solve(&chain, &target, &o, q, scratch, sizeof scratch, &info) == IK_OK);
        reached += info.status == IK_STATUS_CONVERGED;
        outside += limit_outside(joints, n, q);
    }
    printf("  ball limits, CCD: %d of %d random chains reached their target (position or pose), "
           "%d joints outside their limits after a solve (beyond rounding)\n",
           reached, count, outside);
    CHECK(outside == 0);
    CHECK(reached > count / 2);
}

// 10^4 random chains of limited ball joints and hinges, targets (position or pose) from random
// states within the limits: DLS from near starts (the state plus up to 0.1 per value) reaches at
// least 99% of them, counted apart for states with a ball joint on its boundary (the active
// constraint slides it along); PINV, SDLS, the transpose, IK_BALL_EULER and ik_arm_solve() from
// the same starts; every returned state within every limit.
static void test_limit_dls(void)
{
    static const char *names[] = { "DLS", "PINV", "SDLS", "transpose", "DLS Euler", "arm" };
    test_rng rng = { 7070 };
    ik_ball_limit limits[6];
    ik_joint joints[6];
    int c, i, k, reached[2] = { 0, 0 }, tried[2] = { 0, 0 }, outside[6] = { 0 }, count = 10000;
    int other[6] = { 0 }, other_tried[6] = { 0 };
    static unsigned char scratch[65536];
    for (c = 0; c < count; c++) {
        int edge, n = 0, dof;
        ik_real q[18], start[18], want[18];
        ik_chain chain;
        ik_target target;
        ik_xform goal;
        ik_solve_info info;
        ik_jacobian_opts o = ik_default_jacobian_opts();
        ik_arm_opts ao = ik_default_arm_opts();
        n = limit_chain(&rng, limits, joints, want, &edge);
        chain = ik_chain_make(joints, n, ik_xform_translation(ik_vec3_make(0, 0, (ik_real)0.5)));
        dof = ik_chain_dof(&chain);
        ik_chain_fk(&chain, want, NULL, &goal);
        target = c % 2 ? ik_target_pose(goal) : ik_target_position(goal.pos);
        for (i = 0; i < dof; i++)
            start[i] = want[i] + (ik_real)test_rng_uniform(&rng, -0.1, 0.1);
        memcpy(q, start, sizeof q);
        o.max_iterations = 100;
        CHECK(ik_jacobian_solve(&chain, &target, &o, q, scratch, sizeof scratch, &info) == IK_OK);
        tried[edge > 0]++;
        reached[edge > 0] += info.status == IK_STATUS_CONVERGED;
        outside[0] += limit_outside(joints, n, q);
        k = 1 + c % 5; // another solver on every chain, in turn
        memcpy(q, start, sizeof q);
        if (k < 5) {
            o.method = k == 1 ? IK_JACOBIAN_PINV
                              : (k == 2 ? IK_JACOBIAN_SDLS
                                        : (k == 3 ? IK_JACOBIAN_TRANSPOSE : IK_JACOBIAN_DLS));
            o.ball_param = k == 4 ? IK_BALL_EULER : IK_BALL_EXPMAP;
            o.max_iterations = k == 3 ? 1000 : 100;
            CHECK(ik_jacobian_solve(&chain, &target, &o, q, scratch, sizeof scratch, &info) ==
                  IK_OK);
        } else {
            ao.max_attempts = 20;
            CHECK(ik_arm_scratch_size(&chain) <= sizeof scratch);
            CHECK(ik_arm_solve(&chain, &target, &ao, q, scratch, sizeof scratch, &info) == IK_OK);
        }
        other_tried[k]++;
        other[k] += info.status == IK_STATUS_CONVERGED;
        outside[k] += limit_outside(joints, n, q);
    }
    printf("  ball limits, DLS from near starts on %d random chains: reached %d of %d targets "
           "whose state has every ball joint inside its limits, %d of %d with one or more on its "
           "boundary\n",
           count, reached[0], tried[0], reached[1], tried[1]);
    for (k = 1; k < 6; k++)
        printf("  %s from the same starts: reached %d of %d\n", names[k], other[k], other_tried[k]);
    for (k = 0; k < 6; k++)
        CHECK(outside[k] == 0);
    if (outside[0] + outside[1] + outside[2] + outside[3] + outside[4] + outside[5] > 0)
        printf("  joints outside their limits after a solve: DLS %d, PINV %d, SDLS %d, transpose "
               "%d, Euler %d, arm %d\n",
               outside[0], outside[1], outside[2], outside[3], outside[4], outside[5]);
    CHECK(reached[0] >= tried[0] * 0.99 && reached[1] >= tried[1] * 0.99);
}

// The joint move between two states of a chain of balls and hinges: the largest rotation angle
// of a ball joint or change of a hinge.
static double limit_state_move(const ik_joint *joints, int n, const ik_real *a, const ik_real *b)
{
    int j, at;
    double most = 0;
    for (j = 0, at = 0; j < n; at += ik_joint_type_dof(joints[j].type), j++)
        most = fmax(most, joints[j].type == IK_JOINT_BALL
                              ? test_quat_angle(
                                    ik_quat_from_expmap(ik_vec3_make(a[at], a[at + 1], a[at + 2])),
                                    ik_quat_from_expmap(ik_vec3_make(b[at], b[at + 1], b[at + 2])))
                              : fabs((double)(a[at] - b[at])));
    return most;
}

// Whether a joint of a state within the limits is on its boundary: a hinge at lo or hi, a ball
// joint's rotation outside once its exponential map is stretched by 0.1%.
static bool limit_on_boundary(const ik_joint *joints, int n, const ik_real *q)
{
    int j, at;
    bool on = false;
    for (j = 0, at = 0; j < n; at += ik_joint_type_dof(joints[j].type), j++)
        on = on || (joints[j].type == IK_JOINT_BALL
                        ? !ik_ball_limit_contains(
                              joints[j].limit,
                              ik_quat_from_expmap(ik_vec3_scale(
                                  ik_vec3_make(q[at], q[at + 1], q[at + 2]), IK_R(1.001))))
                        : q[at] == joints[j].lo || q[at] == joints[j].hi);
    return on;
}

// A state of the humanoid arm along a smooth loop (s in [0, 2 pi)) that leaves its limits, brought
// within them: the balls projected, the elbow clamped (on a boundary much of the time).
static void limit_arm_state(const ik_limb_limits *limits, double s, ik_real *q)
{
    int i;
    ik_vec3 v;
    for (i = 0; i < 7; i++)
        q[i] = (ik_real)(i == 3 ? 1.6 + 1.0 * sin(4 * s + 2.1) : 1.3 * sin((i + 1) * s + 0.7 * i));
    v = ik_quat_to_expmap(ik_ball_limit_project(
        &limits->shoulder, ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2]))));
    q[0] = v.x, q[1] = v.y, q[2] = v.z;
    q[3] = q[3] < limits->elbow_lo ? limits->elbow_lo
                                   : (q[3] > limits->elbow_hi ? limits->elbow_hi : q[3]);
    v = ik_quat_to_expmap(
        ik_ball_limit_project(&limits->wrist, ik_quat_from_expmap(ik_vec3_make(q[4], q[5], q[6]))));
    q[4] = v.x, q[5] = v.y, q[6] = v.z;
}

// The humanoid arm as a chain (ik_limb_chain() of ik_limb_humanoid(): its limits on the
// joints), with (k = 0) and without its limits, following a smooth path of wrist poses with DLS
// and a rest pose (the elbow bent, 0.1 of the null space's pull), each frame from the last
// answer. The poses are the FK of a smooth loop of states brought within the limits (reachable,
// a ball joint or the elbow on its boundary in most frames). Every answer within the limits and
// 99% converged; the joints' largest move between frames is printed beside the free arm's (the
// analytic limb's path tests in test_limb.c bound it; DLS has one larger move on this path, where
// a ball pinned on its boundary leaves a near-singular reduced problem: docs/limits.md).
static void test_limit_humanoid_path(void)
{
    ik_limb limb;
    ik_limb_limits limits;
    ik_joint joints[2][3];
    ik_xform tip, goal;
    ik_chain chain[2];
    ik_real q[2][7], prev[7], want[7], rest[7] = { 0, 0, 0, IK_R(1.6), 0, 0, 0 };
    static unsigned char scratch[8192];
    int f, k, frames = 4000, outside = 0, converged[2] = { 0, 0 }, on_boundary = 0;
    double worst[2] = { 0, 0 };
    ik_jacobian_opts o = ik_default_jacobian_opts();
    o.rest = rest;
    o.rest_gain = IK_R(0.1);
    CHECK(ik_limb_humanoid(IK_HUMANOID_LEFT_ARM, IK_R(0.3), IK_R(0.25), &limb, &limits) == IK_OK);
    for (k = 0; k < 2; k++) {
        CHECK(ik_limb_chain(&limb, joints[k], &tip) == IK_OK);
        chain[k] = ik_chain_make(joints[k], 3, tip);
        limit_arm_state(&limits, 0, q[k]);
    }
    joints[1][0].limit = joints[1][2].limit = NULL; // (the free arm)
    joints[1][1].lo = -IK_INFINITY, joints[1][1].hi = IK_INFINITY;
    for (f = 1; f <= frames; f++) {
        limit_arm_state(&limits, 2 * 3.14159265358979 * f / frames, want);
        ik_chain_fk(&chain[0], want, NULL, &goal);
        on_boundary += limit_on_boundary(joints[0], 3, want);
        for (k = 0; k < 2; k++) {
            ik_target target = ik_target_pose(goal);
            ik_solve_info info;
            memcpy(prev, q[k], sizeof prev);
            CHECK(ik_jacobian_solve(&chain[k], &target, &o, q[k], scratch, sizeof scratch, &info) ==
                  IK_OK);
            converged[k] += info.status == IK_STATUS_CONVERGED;
            worst[k] = fmax(worst[k], limit_state_move(joints[k], 3, prev, q[k]));
        }
        outside += limit_outside(joints[0], 3, q[0]);
    }
    printf(
        "  humanoid arm (chain, DLS, rest pose) along %d reachable wrist poses (%d with a joint on "
        "its boundary): %d converged (free arm %d), %d joints outside their limits; largest "
        "joint move between frames %.3g rad (free arm %.3g)\n",
        frames, on_boundary, converged[0], converged[1], outside, worst[0], worst[1]);
    CHECK(outside == 0);
    CHECK(on_boundary > frames / 2);
    CHECK(converged[0] >= frames * 0.99);
}

void test_limits(void)
{
    RUN(test_limit_make);
    RUN(test_limit_project_random);
    RUN(test_limit_edges);
    RUN(test_limit_continuity);
    RUN(test_limit_ccd);
    RUN(test_limit_dls);
    RUN(test_limit_humanoid_path);
}
