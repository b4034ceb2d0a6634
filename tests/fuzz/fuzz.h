/* Shared pieces of the fuzz harnesses: a byte reader that turns arbitrary bytes into ik.h inputs
   (mostly sensible values, with NaN, +-Inf, denormals, huge and tiny magnitudes mixed in at a
   rate the first byte chooses), and the checks every harness makes (FZ_CHECK aborts).

   Each harness is one file with FUZZ_TARGET(name) { ... }. Built with -DIK_FUZZ_LIBFUZZER (and
   -fsanitize=fuzzer) it is a libFuzzer target; otherwise it is the function fuzz_<name>, called
   by tests/fuzz/replay.c, which replays a corpus directory without libFuzzer (make test).

   Every decoded value that is outside what ik.h documents as valid sets fz.tainted, so a
   harness can check both directions: tainted input may fail (with BAD_ARG), clean input must
   not fail with BAD_ARG. */
#ifndef IK_FUZZ_H
#define IK_FUZZ_H
#include "../../ik.h"
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef IK_FUZZ_LIBFUZZER
#define FUZZ_TARGET(name) int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#else
#define FUZZ_TARGET(name) int fuzz_##name(const uint8_t *data, size_t size)
#endif

#define FZ_CHECK(c)                                                                                \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #c, __FILE__, __LINE__);            \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#define FZ_MAX_JOINTS 12 // joints a harness builds (counts beyond IK_MAX_JOINTS are only claimed)
#define FZ_MAX_DOF    (3 * FZ_MAX_JOINTS)

typedef struct fz {
    const uint8_t *p;
    size_t n;
    unsigned special_rate; // a real is special when its selector byte is below this
    int tainted;           // a value outside the documented domain was produced
} fz;

static inline uint8_t fz_u8(fz *f)
{
    if (!f->n)
        return 0;
    f->n--;
    return *f->p++;
}

static inline fz fz_begin(const uint8_t *data, size_t size)
{
    static const unsigned rates[8] = { 0, 0, 0, 0, 3, 12, 40, 128 };
    fz f;
    f.p = data;
    f.n = size;
    f.tainted = 0;
    f.special_rate = rates[fz_u8(&f) & 7];
    return f;
}

// An integer in lo..hi.
static inline int fz_int(fz *f, int lo, int hi)
{
    unsigned v = fz_u8(f);
    v = v << 8 | fz_u8(f);
    return lo + (int)(v % (unsigned)(hi - lo + 1));
}

// true with probability about k / 256.
static inline int fz_chance(fz *f, unsigned k)
{
    return fz_u8(f) < k;
}

static inline int fz_finite(ik_real x) // (by the bits: -ffast-math may fold (x - x) == (x - x))
{
    double d = (double)x;
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return (b & 0x7fffffffffffffffull) < 0x7ff0000000000000ull;
}

static inline int fz_nan(ik_real x) // (by the bits, as fz_finite)
{
    double d = (double)x;
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static inline ik_real fz_from_double(double d)
{
#ifdef IK_USE_FLOAT
    // out of float's range: the infinity a float conversion would round to (C leaves it undefined)
    if (d > (double)FLT_MAX)
        return (ik_real)HUGE_VAL;
    if (d < -(double)FLT_MAX)
        return -(ik_real)HUGE_VAL;
#endif
    return (ik_real)d;
}

// Bad or extreme reals, and whether ik.h rejects them as a length, joint value or coordinate.
static inline ik_real fz_special(fz *f)
{
    uint8_t k = fz_u8(f) % 20;
    double d = 0;
    int bad = 0;
    switch (k) {
    case 0: d = nan(""), bad = 1; break;
    case 1: d = HUGE_VAL, bad = 1; break;
    case 2: d = -HUGE_VAL, bad = 1; break;
    case 3: d = 0; break;
    case 4: d = -0.0; break;
    case 5: return IK__REAL_MIN / 4; // a denormal of ik_real
    case 6: return -IK__REAL_MIN / 4;
    case 7: return IK__REAL_MIN;
    case 8: d = 1e30, bad = 1; break;
    case 9: d = -1e30, bad = 1; break;
    case 10: d = (double)IK_MAX_MAGNITUDE; break;
    case 11: d = -(double)IK_MAX_MAGNITUDE; break;
    case 12: d = 1e-30; break;
    case 13: d = (double)IK_EPSILON; break;
    case 14: d = 1e6; break;
    case 15: d = 1e-6; break;
    case 16: d = 3.14159265358979323846; break;
    case 17: d = (double)IK_MAX_MAGNITUDE * 1.5, bad = 1; break;
    case 18: f->tainted = 1; return (fz_u8(f) & 1 ? -1 : 1) * IK__REAL_MAX;
    default: { // 8 raw bytes as a double
        uint64_t u = 0;
        int i;
        for (i = 0; i < 8; i++)
            u = u << 8 | fz_u8(f);
        memcpy(&d, &u, sizeof d);
        {
            ik_real r = fz_from_double(d);
            if (!((r - r) == (r - r)) || (r < 0 ? -r : r) > IK_MAX_MAGNITUDE)
                f->tainted = 1;
            return r;
        }
    }
    }
    if (bad)
        f->tainted = 1;
    return fz_from_double(d);
}

// A real: usually a "nice" value in [-4, 4) * scale (16-bit resolution), sometimes special.
static inline ik_real fz_real(fz *f, double scale)
{
    if (fz_u8(f) < f->special_rate)
        return fz_special(f);
    {
        int v = (int)fz_u8(f) << 8 | fz_u8(f);
        return fz_from_double((double)(v - 32768) / 8192.0 * scale);
    }
}

// A length: |fz_real| (NaN and huge values stay bad), sometimes negative (tainted).
static inline ik_real fz_length(fz *f, double scale)
{
    ik_real x = fz_real(f, scale);
    if (fz_chance(f, 8)) {
        if (x > 0)
            f->tainted = 1;
        return -x;
    }
    return x < 0 ? -x : x;
}

static inline ik_vec3 fz_vec3(fz *f, double scale)
{
    ik_real x = fz_real(f, scale), y = fz_real(f, scale), z = fz_real(f, scale);
    return ik_vec3_make(x, y, z);
}

// A unit vector (usually) or, sometimes, a raw one (zero, long, non-finite): raw sets tainted
// only if it is not unit, since axes must be unit.
static inline ik_vec3 fz_axis(fz *f)
{
    if (fz_chance(f, 24)) {
        ik_vec3 v = fz_vec3(f, 1);
        ik_real l2 = ik_vec3_length2(v);
        if (!ik_vec3_is_finite(v) || !(l2 > IK_R(0.9999) && l2 < IK_R(1.0001)))
            f->tainted = 1;
        return v;
    }
    {
        uint8_t c = fz_u8(f);
        ik_vec3 v;
        if (c < 96) // a coordinate axis, the common case in robots
            return ik_vec3_make(c % 3 == 0 ? 1 : 0, c % 3 == 1 ? 1 : 0, c % 3 == 2 ? 1 : 0);
        {
            int saved = f->tainted; // a bad value here is replaced: not tainted
            v = ik_vec3_normalize(fz_vec3(f, 1));
            f->tainted = saved;
        }
        return ik_vec3_length2(v) > 0 ? v : ik_vec3_make(0, 0, 1);
    }
}

// A unit quaternion (usually) or a raw one (zero, non-unit, non-finite): raw ones set tainted
// when *unit_required and they are not unit to 1e-4.
// A rotation the solvers normalize (the header's rule): finite, and not zero or subnormal (its
// largest component a normal number; |q|^2 may underflow or overflow).
static inline int fz_quat_normalizable(ik_quat q)
{
    double m = fmax(fmax(fabs((double)q.x), fabs((double)q.y)),
                    fmax(fabs((double)q.z), fabs((double)q.w)));
    return fz_finite(q.x) && fz_finite(q.y) && fz_finite(q.z) && fz_finite(q.w) &&
           m >= (double)IK__REAL_MIN;
}

static inline ik_quat fz_quat(fz *f, int unit_required)
{
    if (fz_chance(f, 24)) {
        int saved = f->tainted;
        ik_real x = fz_real(f, 1), y = fz_real(f, 1), z = fz_real(f, 1), w = fz_real(f, 1);
        ik_quat q = ik_quat_make(x, y, z, w);
        f->tainted = saved; // huge components are fine in a quaternion that gets normalized
        if (unit_required ? !ik_quat_is_unit(q, IK_R(1e-4)) : !fz_quat_normalizable(q))
            f->tainted = 1;
        return q;
    }
    if (fz_chance(f, 40))
        return ik_quat_identity();
    {
        // exp of a clean rotation vector, never tainted
        int saved = f->tainted;
        ik_quat q = ik_quat_from_expmap(fz_vec3(f, 1));
        f->tainted = saved;
        return q;
    }
}

static inline ik_xform fz_xform(fz *f, double scale)
{
    ik_quat r = fz_quat(f, 1);
    ik_vec3 p = fz_vec3(f, scale);
    ik_xform t;
    t.rot = r;
    t.pos = p;
    return t;
}

// Limits: none, a valid interval, or raw (maybe lo > hi, NaN).
static inline void fz_limits(fz *f, ik_real *lo, ik_real *hi)
{
    uint8_t c = fz_u8(f);
    int saved = f->tainted;
    if (c < 128) {
        *lo = -IK_INFINITY;
        *hi = IK_INFINITY;
        return;
    }
    *lo = fz_real(f, 1);
    *hi = fz_real(f, 1);
    if (c < 232 && *lo > *hi) { // usually ordered
        ik_real t = *lo;
        *lo = *hi;
        *hi = t;
    }
    // any size is fine, infinite too, but not NaN, lo > hi, lo = +inf or hi = -inf
    f->tainted = saved || !(*lo <= *hi) || *lo == IK_INFINITY || *hi == -IK_INFINITY;
}

static inline ik_joint fz_joint(fz *f, double scale)
{
    ik_joint j;
    uint8_t t = fz_u8(f);
    j.type = (ik_joint_type)(t % 4);
    if (t >= 250) {
        j.type = (ik_joint_type)(t == 255 ? -1 : 4 + t % 3); // not a joint type
        f->tainted = 1;
    }
    int saved;
    j.origin = fz_xform(f, scale);
    saved = f->tainted;
    j.axis = fz_axis(f);
    fz_limits(f, &j.lo, &j.hi);
    j.weight = 1;
    j.limit = NULL; // (ball-joint limits: fuzzed by the limits' own tests, not through joints)
    if (fz_chance(f, 48)) {
        int before = f->tainted;
        j.weight = fz_real(f, 1);
        f->tainted = before || !(j.weight >= 0) || !fz_finite(j.weight); // any size is fine
    }
    if (j.type == IK_JOINT_FIXED || j.type == IK_JOINT_BALL) {
        // the axis is ignored, the limits too (fixed) or must say "none" (ball): a bad one
        // there must not count
        f->tainted = saved || (f->tainted && !(j.weight >= 0 && fz_finite(j.weight)));
        j.axis = ik_vec3_make(0, 0, 1);
        j.lo = -IK_INFINITY;
        j.hi = IK_INFINITY;
    }
    return j;
}

// A chain of up to FZ_MAX_JOINTS joints in *joints; joint_count may claim more (or 0, or
// negative), and joints may be NULL (*null_joints is set then).
static inline ik_chain fz_chain(fz *f, ik_joint *joints, double scale, int *null_joints)
{
    uint8_t c = fz_u8(f);
    int n = 1 + c % FZ_MAX_JOINTS, i;
    ik_chain ch;
    for (i = 0; i < n; i++)
        joints[i] = fz_joint(f, scale);
    ch = ik_chain_make(joints, n, fz_xform(f, scale));
    *null_joints = 0;
    if (c >= 252) {
        ch.joint_count = c == 252 ? 0 : c == 253 ? -3 : IK_MAX_JOINTS + 1; // never read past n
        f->tainted = 1;
        if (c == 255) {
            ch.joints = NULL;
            ch.joint_count = n;
            f->tainted = 0;
            *null_joints = 1;
        }
    }
    return ch;
}

// The chain's dof computed here, independently of ik.h (0 if the count is out of range).
static inline int fz_chain_dof(const ik_chain *ch)
{
    int i, dof = 0;
    if (!ch->joints || ch->joint_count < 1 || ch->joint_count > FZ_MAX_JOINTS)
        return 0;
    for (i = 0; i < ch->joint_count; i++) {
        ik_joint_type t = ch->joints[i].type;
        dof += t == IK_JOINT_BALL ? 3 : (t == IK_JOINT_REVOLUTE || t == IK_JOINT_PRISMATIC) ? 1 : 0;
    }
    return dof;
}

static inline double fz_dist(ik_vec3 a, ik_vec3 b)
{
    double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y;
    double dz = (double)a.z - (double)b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static inline int fz_bounded(ik_real x)
{
    return fz_finite(x) && (x < 0 ? -x : x) <= IK_MAX_MAGNITUDE;
}

static inline int fz_vec3_bounded(ik_vec3 v)
{
    return fz_bounded(v.x) && fz_bounded(v.y) && fz_bounded(v.z);
}

static inline int fz_all_finite(const ik_real *x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!fz_finite(x[i]))
            return 0;
    return 1;
}

static inline int fz_xform_finite(ik_xform t)
{
    return fz_finite(t.rot.x) && fz_finite(t.rot.y) && fz_finite(t.rot.z) && fz_finite(t.rot.w) &&
           ik_vec3_is_finite(t.pos);
}

static inline int fz_status_valid(ik_status s)
{
    return s == IK_STATUS_CONVERGED || s == IK_STATUS_MAX_ITERATIONS || s == IK_STATUS_STALLED ||
           s == IK_STATUS_UNREACHABLE || s == IK_STATUS_LIMITED;
}

static inline int fz_info_valid(const ik_solve_info *info)
{
    return fz_status_valid(info->status) && info->iterations >= 0 &&
           fz_finite(info->position_error) && info->position_error >= 0 &&
           fz_finite(info->rotation_error) && info->rotation_error >= 0;
}

// The pattern outputs are filled with before a call, to see whether the call wrote them.
#define FZ_FILL 0xA5
static inline int fz_untouched(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (b[i] != FZ_FILL)
            return 0;
    return 1;
}

// Joint values within every revolute and prismatic joint's limits (the chain is valid).
static inline int fz_within_limits(const ik_chain *ch, const ik_real *q)
{
    int i, c = 0;
    for (i = 0; i < ch->joint_count; i++) {
        const ik_joint *j = &ch->joints[i];
        if (j->type == IK_JOINT_REVOLUTE || j->type == IK_JOINT_PRISMATIC) {
            if (!(q[c] >= j->lo && q[c] <= j->hi))
                return 0;
            c++;
        } else if (j->type == IK_JOINT_BALL) {
            c += 3;
        }
    }
    return 1;
}
// A solver problem: chain, target, start state and scratch, with what was made wrong on purpose.
typedef struct fz_solve_case {
    ik_joint joints[FZ_MAX_JOINTS];
    ik_chain chain;
    ik_target target;
    ik_real q[FZ_MAX_DOF], q0[FZ_MAX_DOF];
    int dof;
    int null_chain, null_joints, null_target, null_q, null_scratch, null_info;
    int chain_bad, target_bad, q_bad, scratch_short;
    unsigned char *scratch;
    size_t scratch_size;
} fz_solve_case;

// Builds a case; size_fn gives the scratch size the solver asks for.
static inline void fz_solve_case_make(fz *f, fz_solve_case *c, size_t (*size_fn)(const ik_chain *))
{
    static unsigned char scratch_buf[1 << 14];
    double scale = fz_chance(f, 48) ? (fz_u8(f) & 1 ? 1e-3 : 1e3) : 1;
    int i;
    size_t need;
    c->null_chain = fz_chance(f, 3);
    c->null_target = fz_chance(f, 3);
    c->null_q = fz_chance(f, 3);
    c->null_scratch = fz_chance(f, 3);
    c->null_info = fz_chance(f, 24);
    f->tainted = 0;
    c->chain = fz_chain(f, c->joints, scale, &c->null_joints);
    c->chain_bad = f->tainted;
    c->dof = fz_chain_dof(&c->chain);
    f->tainted = 0;
    c->target.pos = fz_vec3(f, scale);
    c->target.use_rotation = fz_u8(f) & 1;
    c->target_bad = f->tainted;
    f->tainted = 0;
    c->target.rot = fz_quat(f, 0);
    c->target_bad = c->target_bad || (c->target.use_rotation && f->tainted);
    f->tainted = 0;
    for (i = 0; i < c->dof; i++)
        c->q[i] = fz_chance(f, 160) ? 0 : fz_real(f, 1);
    c->q_bad = f->tainted;
    for (; i < FZ_MAX_DOF; i++)
        c->q[i] = 0;
    memcpy(c->q0, c->q, sizeof c->q);
    need = size_fn(&c->chain);
    c->scratch_size = need;
    c->scratch_short = 0;
    if (fz_chance(f, 12)) {
        size_t less = (size_t)fz_int(f, 1, 64);
        c->scratch_size = less > need ? 0 : need - less;
        c->scratch_short = 1;
    }
    if (c->scratch_size > sizeof scratch_buf - 8)
        c->scratch_size = sizeof scratch_buf - 8; // not reached with FZ_MAX_JOINTS joints
    c->scratch = scratch_buf + fz_u8(f) % 8;      // any alignment
}

// A rest pose for the Jacobian solver's options (mostly small values, some special); returns 1
// if one of them is bad.
static inline int fz_rest_pose(fz *f, int dof, ik_real *rest)
{
    int i;
    f->tainted = 0;
    for (i = 0; i < dof; i++)
        rest[i] = fz_chance(f, 200) ? 0 : fz_real(f, 1);
    return f->tainted;
}

// Checks common to both chain solvers after a call that returned r.
static inline void fz_solve_case_check(const fz_solve_case *c, ik_result r, int opts_bad,
                                       const ik_solve_info *info)
{
    int chain_invalid = c->null_chain || c->null_joints || c->chain_bad;
    if (r == IK_OK) {
        FZ_CHECK(!c->null_chain && !c->null_joints && !c->null_target && !c->null_q &&
                 !c->null_scratch);
        FZ_CHECK(!c->chain_bad);
        FZ_CHECK(!c->target_bad);
        FZ_CHECK(!c->q_bad);
        FZ_CHECK(!opts_bad);
        FZ_CHECK(!c->scratch_short);
        FZ_CHECK(fz_all_finite(c->q, c->dof));
        FZ_CHECK(fz_within_limits(&c->chain, c->q));
        if (!c->null_info)
            FZ_CHECK(fz_info_valid(info));
    } else {
        FZ_CHECK(memcmp(c->q, c->q0, sizeof c->q) == 0);
        FZ_CHECK(fz_untouched(info, sizeof *info));
        switch (r) {
        case IK_ERR_NULL_ARG:
            FZ_CHECK(c->null_chain || c->null_joints || c->null_target || c->null_q ||
                     c->null_scratch);
            break;
        case IK_ERR_BAD_ARG: FZ_CHECK(chain_invalid || c->target_bad || c->q_bad); break;
        case IK_ERR_BAD_OPTS: FZ_CHECK(opts_bad); break;
        case IK_ERR_SCRATCH_TOO_SMALL: FZ_CHECK(c->scratch_short || chain_invalid); break;
        case IK_ERR_NUMERIC: break; // documented for both solvers (a value beyond the maximum)
        default: FZ_CHECK(0);
        }
    }
}

// Jacobian options with some fields from the bytes (rest: the rest pose they may point at); *bad
// is set if one is outside its documented range.
static inline ik_jacobian_opts fz_jacobian_opts(fz *f, const ik_real *rest, int *bad)
{
    ik_jacobian_opts o = ik_default_jacobian_opts();
    *bad = 0;
    o.method = (ik_jacobian_method)(fz_u8(f) % 4);
    o.ball_param = (ik_ball_param)(fz_u8(f) % 2);
    o.max_iterations = 1 + fz_u8(f) % 30;
    if (fz_chance(f, 16))
        o.max_iterations = 100;
    if (fz_chance(f, 48))
        o.rest = rest;
    if (fz_chance(f, 64)) {
        f->tainted = 0;
        switch (fz_u8(f) % 16) {
        case 0: o.method = (ik_jacobian_method)fz_int(f, -2, 6), *bad = o.method > 3; break;
        case 1: o.ball_param = (ik_ball_param)fz_int(f, -2, 4), *bad = o.ball_param > 1; break;
        case 2: o.max_iterations = fz_int(f, -3, 3), *bad = o.max_iterations < 1; break;
        case 3: o.tolerance = fz_real(f, 0.01), *bad = !(o.tolerance >= 0); break;
        case 4: o.rotation_tolerance = fz_real(f, 0.01), *bad = !(o.rotation_tolerance >= 0); break;
        case 5: o.orientation_weight = fz_real(f, 1), *bad = !(o.orientation_weight >= 0); break;
        case 6: o.damping = fz_real(f, 0.1), *bad = !(o.damping >= 0); break;
        case 7: o.rcond = fz_real(f, 0.1), *bad = !(o.rcond >= 0 && o.rcond < 1); break;
        case 8: // infinity is the default: no clamping
            o.max_step = fz_chance(f, 32) ? IK_INFINITY : fz_real(f, 1);
            *bad = fz_nan(o.max_step) || !(o.max_step > 0); // (NaN on the bits: -ffast-math)
            f->tainted = 0;                                 // any size, infinite too
            break;
        case 9: o.max_joint_step = fz_real(f, 1), *bad = !(o.max_joint_step > 0); break;
        case 10:
            o.rest_gain = fz_real(f, 0.5);
            *bad = !(o.rest_gain >= 0 && o.rest_gain <= 1);
            break;
        case 11:
            o.min_improvement = fz_real(f, 0.25);
            *bad = !(o.min_improvement >= 0 && o.min_improvement < 1);
            break;
        default: o._valid = fz_int(f, 0, 65535), *bad = 1; break; // not from the defaults
        }
        *bad = *bad || f->tainted;
    }
    return o;
}
#endif
