/* Tiny test harness for ik.h. CHECK(c) and CHECK_NEAR(a, b, tol) count and print failures;
   RUN(fn) runs one test; test_main.c prints "N passed, N failed" last. */
#ifndef IK_TEST_H
#define IK_TEST_H
#include "../ik.h"
#include <stdio.h>
#include <stdint.h>

extern int ik_test_passed, ik_test_failed;

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (c) {                                                                                   \
            ik_test_passed++;                                                                      \
        } else {                                                                                   \
            ik_test_failed++;                                                                      \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                                    \
        }                                                                                          \
    } while (0)

// Finiteness, NaN and infinity by the bits of a double: under -ffast-math the compiler may fold
// x == x, x - x == 0 and isnan(x) to what they give for finite x.
static inline int test_finite(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return (b & 0x7fffffffffffffffull) < 0x7ff0000000000000ull;
}
static inline int test_isnan(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
static inline int test_isinf(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return (b & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;
}

// (NaN or infinite a or b fails, as it does without -ffast-math)
#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double ik_t_a_ = (double)(a), ik_t_b_ = (double)(b), ik_t_tol_ = (double)(tol);            \
        if (test_finite(ik_t_a_) && test_finite(ik_t_b_) &&                                        \
            fabs(ik_t_a_ - ik_t_b_) <= ik_t_tol_) {                                                \
            ik_test_passed++;                                                                      \
        } else {                                                                                   \
            ik_test_failed++;                                                                      \
            printf("FAIL %s:%d: %s = %.17g, %s = %.17g, |diff| = %.3g > %.3g\n", __FILE__,         \
                   __LINE__, #a, ik_t_a_, #b, ik_t_b_, fabs(ik_t_a_ - ik_t_b_), ik_t_tol_);        \
        }                                                                                          \
    } while (0)

// Runs one test (test_main.c): with --trap-fe, a trapped floating-point exception ends the
// test as one failure that names it and the instruction, and the run goes on.
void ik_test_run(void (*fn)(void), const char *name);

#define RUN(fn)                                                                                    \
    do {                                                                                           \
        int ik_t_f_ = ik_test_failed;                                                              \
        ik_test_run(fn, #fn);                                                                      \
        if (ik_test_failed != ik_t_f_)                                                             \
            printf("  in %s\n", #fn);                                                              \
    } while (0)

// Whether the tests check floating-point exception flags after library calls: clang's default
// (-ffp-exception-behavior=ignore) lets its vectorizer pack scalar divisions into vector lanes
// that divide 0 by 0 (FE_INVALID raised by code ik.h does not contain), and -ffast-math makes
// no promise either. A clang build with -ffp-exception-behavior=maytrap defines it as 1.
#ifndef IK_TEST_FP_FLAGS
#if defined(__FAST_MATH__) || defined(__clang__)
#define IK_TEST_FP_FLAGS 0
#else
#define IK_TEST_FP_FLAGS 1
#endif
#endif

// Built with -ffast-math (gcc and clang define __FAST_MATH__): results agree with the IEEE
// build's within tolerances, not bit for bit, and subnormal numbers may be flushed to zero
// (docs/robustness.md, "Compiler options"). The few tests that check bitwise identity or
// subnormal values skip those checks there (#if !TEST_FAST_MATH, with the reason).
#ifdef __FAST_MATH__
#define TEST_FAST_MATH 1
#else
#define TEST_FAST_MATH 0
#endif

// A tolerance per precision, with the reason next to its use: TOL(1e-12, 1e-5).
#ifdef IK_USE_FLOAT
#define TOL(d, f) ((double)(f))
#else
#define TOL(d, f) ((double)(d))
#endif

// Deterministic random numbers (splitmix64), so every run sees the same cases.
typedef struct test_rng {
    uint64_t s;
} test_rng;
static inline uint64_t test_rng_next(test_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
// Uniform in [lo, hi).
static inline double test_rng_uniform(test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(test_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
static inline ik_vec3 test_rng_vec3(test_rng *r, double lo, double hi)
{
    // one draw per statement: the order of evaluation of arguments is unspecified
    double x = test_rng_uniform(r, lo, hi);
    double y = test_rng_uniform(r, lo, hi);
    double z = test_rng_uniform(r, lo, hi);
    return ik_vec3_make((ik_real)x, (ik_real)y, (ik_real)z);
}
// A uniformly distributed unit quaternion (Shoemake), w >= 0 not enforced.
static inline ik_quat test_rng_quat(test_rng *r)
{
    double u1 = test_rng_uniform(r, 0, 1), u2 = test_rng_uniform(r, 0, 6.283185307179586),
           u3 = test_rng_uniform(r, 0, 6.283185307179586);
    double a = sqrt(1 - u1), b = sqrt(u1);
    return ik_quat_make((ik_real)(a * sin(u2)), (ik_real)(a * cos(u2)), (ik_real)(b * sin(u3)),
                        (ik_real)(b * cos(u3)));
}
// Distance between unit rotations: the angle of a^-1 b in radians (the sign of q is ignored).
static inline double test_quat_angle(ik_quat a, ik_quat b)
{
    ik_quat r = ik_quat_mul(ik_quat_conjugate(a), b);
    double x = (double)r.x, y = (double)r.y, z = (double)r.z;
    double s = sqrt(x * x + y * y + z * z);
    return 2.0 * atan2(s, fabs((double)r.w));
}
static inline double test_vec3_dist(ik_vec3 a, ik_vec3 b)
{
    double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y;
    double dz = (double)a.z - (double)b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}
static inline double test_mat3_dist(ik_mat3 a, ik_mat3 b)
{
    double m = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = fabs((double)a.m[i][j] - (double)b.m[i][j]);
            if (d > m)
                m = d;
        }
    return m;
}
#endif
