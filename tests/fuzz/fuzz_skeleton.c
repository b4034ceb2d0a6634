/* Fuzz target: ik_skeleton_solve (and ik_skeleton_scratch_size), ik_skeleton_fk and
   ik_skeleton_jacobian on trees from the bytes: up to 16 joints of every type with random
   parents (some invalid, or NULL: a chain), ball limits, up to 6 effectors of every kind with
   random fields, weights, blends and priorities, states, options, rest poses, scratch sizes and
   alignments, and arguments placed inside the scratch. On IK_OK: finite q within every joint's
   limits (limited balls by ik_ball_limit_contains()), a valid info holding the largest of the
   effectors' errors, per-effector errors finite and non-negative, met as the tolerances say,
   converged only with every effector met; FK frames finite and unit, the Jacobian finite with
   zero columns off the joint's path, its frames FK's. On error: q, info, every output
   untouched, and an error code that matches what was made wrong (clean input never fails but
   with IK_ERR_NUMERIC). Every accepted solve is prepared (ik_skeleton_prepare) and solved twice
   by ik_skeleton_solve_prepared: the same answers to the bit, the prepared bytes unchanged. */
#include "fuzz.h"

#define SK_JOINTS    16
#define SK_DOF       (3 * SK_JOINTS)
#define SK_EFFECTORS 6

// A skeleton solve's problem, with what was made wrong on purpose.
typedef struct sk_case {
    ik_joint joints[SK_JOINTS];
    ik_ball_limit limits[SK_JOINTS];
    int parents[SK_JOINTS];
    ik_skeleton skeleton;
    ik_effector effectors[SK_EFFECTORS];
    int joint_count, count, dof; // joints built, effectors claimed, the state's length
    ik_real q[SK_DOF], q0[SK_DOF], rest[SK_DOF];
    ik_jacobian_opts opts;
    int null_skeleton, null_joints, null_effectors, null_q, null_opts, null_scratch;
    int skeleton_bad, effectors_bad, q_bad, opts_bad, rest_bad;
} sk_case;

// Sometimes a limit for joint j (a ball, rarely another joint: tainted), sometimes corrupted.
static const ik_ball_limit *sk_ball_limit(fz *f, const ik_joint *j, ik_ball_limit *out)
{
    int saved = f->tainted;
    ik_vec3 twist, x;
    ik_real swing_x, swing_y, lo, hi;
    if (!fz_chance(f, j->type == IK_JOINT_BALL ? 96 : 2))
        return NULL;
    twist = fz_axis(f);
    x = fz_axis(f);
    swing_x = (ik_real)(fz_u8(f) * IK_PI / 255);
    swing_y = (ik_real)(fz_u8(f) * IK_PI / 255);
    lo = (ik_real)((fz_u8(f) - 128) * IK_PI / 128);
    hi = lo + (ik_real)(fz_u8(f) * IK_PI / 128);
    f->tainted = saved;
    if (ik_ball_limit_make(twist, x, swing_x, swing_y, lo, hi > IK_PI ? IK_PI : hi, out) != IK_OK)
        return NULL;
    if (j->type != IK_JOINT_BALL) {
        f->tainted = 1;
    } else if (fz_chance(f, 6)) { // a semi-axis changed (valid in [0, 1])
        ik_real v = fz_chance(f, 128) ? -1 : fz_special(f);
        out->cone[fz_u8(f) & 1] = v;
        f->tainted = saved || !(fz_finite(v) && v >= 0 && v <= 1);
    }
    return out;
}

// The skeleton: joints, parents (usually valid), and sometimes a bad count or NULL joints.
static void sk_skeleton(fz *f, sk_case *c, double scale)
{
    uint8_t k = fz_u8(f);
    int i, parents_bad = 0, use_parents = !fz_chance(f, 24);
    c->joint_count = 1 + k % SK_JOINTS;
    f->tainted = 0;
    for (i = 0; i < c->joint_count; i++) {
        c->joints[i] = fz_joint(f, scale);
        c->joints[i].limit = sk_ball_limit(f, &c->joints[i], &c->limits[i]);
        c->parents[i] = fz_chance(f, 64) ? i - 1 : fz_int(f, -1, i - 1);
        if (fz_chance(f, 4)) { // maybe outside -1 .. i - 1
            c->parents[i] = fz_int(f, -3, i + 2);
            parents_bad = parents_bad || c->parents[i] < -1 || c->parents[i] >= i;
        }
    }
    c->skeleton_bad = f->tainted || (use_parents && parents_bad);
    c->skeleton = ik_skeleton_make(c->joints, use_parents ? c->parents : NULL, c->joint_count);
    c->null_joints = 0;
    if (k >= 252) { // (never read past the joints built)
        c->skeleton.joint_count = k == 252 ? 0 : k == 253 ? -1 : IK_MAX_JOINTS + 1;
        c->skeleton_bad = 1;
        if (k == 255) {
            c->skeleton.joints = NULL;
            c->skeleton.joint_count = c->joint_count;
            c->null_joints = 1;
        }
    }
    c->dof = 0;
    for (i = 0; i < c->joint_count; i++)
        c->dof += ik_joint_type_dof(c->joints[i].type);
}

// Whether a weight is in its documented range: 0 or 1e-6 .. 1e6.
static int sk_weight_valid(ik_real w)
{
    return fz_bounded(w) && (w == 0 || (w >= (ik_real)1e-6 && w <= (ik_real)1e6));
}

// An effector's weights, blend and priority; returns 1 if one is outside its range.
static int sk_effector_weights(fz *f, ik_effector *e)
{
    if (fz_chance(f, 48))
        e->position_weight = fz_chance(f, 64) ? 0 : fz_real(f, 1);
    if (fz_chance(f, 48))
        e->rotation_weight = fz_chance(f, 64) ? 0 : fz_real(f, 1);
    if (fz_chance(f, 64))
        e->blend = fz_chance(f, 128) ? (ik_real)(fz_u8(f) / 255.0) : fz_real(f, 1);
    e->priority = fz_u8(f) & 1;
    if (fz_chance(f, 4))
        e->priority = fz_int(f, -2, 3);
    return (e->priority != 0 && e->priority != 1) || !sk_weight_valid(e->position_weight) ||
           !sk_weight_valid(e->rotation_weight) || !fz_finite(e->blend) || e->blend < 0 ||
           e->blend > 1;
}

// An effector on one of n joints; returns 1 if a field is outside its documented range.
static int sk_effector(fz *f, int n, ik_effector *e, double scale)
{
    uint8_t k = fz_u8(f);
    int bad, joint = fz_int(f, 0, n - 1);
    ik_xform offset;
    f->tainted = 0;
    offset = fz_xform(f, scale);
    *e = ik_effector_make(joint, offset, (ik_effector_kind)(k % 5), fz_vec3(f, scale));
    bad = f->tainted; // the offset and the target
    if (k >= 250)
        e->kind = (ik_effector_kind)(k == 255 ? -1 : 5 + k % 3), bad = 1;
    if (fz_chance(f, 6))
        e->joint = fz_chance(f, 128) ? -1 : n + fz_u8(f) % 3, bad = 1;
    f->tainted = 0;
    e->axis = fz_axis(f);
    bad = bad || (f->tainted && e->kind >= IK_EFFECTOR_AIM && e->kind <= IK_EFFECTOR_FREE_AXIS);
    f->tainted = 0;
    e->target_rot = fz_quat(f, 0);
    bad = bad || (f->tainted && (e->kind == IK_EFFECTOR_POSE || e->kind == IK_EFFECTOR_FREE_AXIS));
    if (e->kind == IK_EFFECTOR_DIRECTION && !(ik_vec3_length2(ik_vec3_normalize(e->target)) > 0))
        bad = 1; // a zero direction
    return sk_effector_weights(f, e) || bad;
}

// The whole problem but the scratch.
static void sk_case_make(fz *f, sk_case *c)
{
    double scale = fz_chance(f, 48) ? (fz_u8(f) & 1 ? 1e-3 : 1e3) : 1;
    int i, n;
    c->null_skeleton = fz_chance(f, 3);
    c->null_effectors = fz_chance(f, 3);
    c->null_q = fz_chance(f, 3);
    c->null_opts = fz_chance(f, 8);
    c->null_scratch = fz_chance(f, 3);
    sk_skeleton(f, c, scale);
    n = 1 + fz_u8(f) % SK_EFFECTORS;
    c->effectors_bad = 0;
    for (i = 0; i < n; i++)
        c->effectors_bad |= sk_effector(f, c->joint_count, &c->effectors[i], scale);
    c->count = n;
    if (fz_chance(f, 6)) { // (never read past the effectors made)
        c->count = fz_chance(f, 128) ? 0 : IK_MAX_EFFECTORS + 1;
        c->effectors_bad = 1;
    }
    f->tainted = 0;
    for (i = 0; i < SK_DOF; i++)
        c->q[i] = i < c->dof && !fz_chance(f, 160) ? fz_real(f, 1) : 0;
    c->q_bad = f->tainted;
    memcpy(c->q0, c->q, sizeof c->q);
    c->rest_bad = fz_rest_pose(f, c->dof, c->rest);
    c->opts = fz_jacobian_opts(f, c->rest, &c->opts_bad);
    c->rest_bad = c->rest_bad && c->opts.rest;
    if (c->null_opts)
        c->opts_bad = c->rest_bad = 0; // NULL options mean the defaults
}

// What can be placed inside the scratch.
enum { SK_IN_Q, SK_IN_INFO, SK_IN_OUT, SK_IN_EFFECTORS, SK_IN_PARENTS, SK_IN_JOINTS, SK_IN_REST };

// A copy of the n bytes at p at an aligned place from offset `at` of scratch (room past its end),
// or p (NULL or n = 0); *overlap: whether the copy shares a byte with the scratch's size bytes.
static void *sk_copy_into(const void *p, size_t n, unsigned char *scratch, size_t size, size_t at,
                          int *overlap)
{
    unsigned char *to = scratch + at;
    to += (16 - (size_t)(uintptr_t)to % 16) % 16;
    *overlap = 0;
    if (!p || !n)
        return (void *)(uintptr_t)p;
    memcpy(to, p, n);
    *overlap = to < scratch + size && scratch < to + n;
    return to;
}

// Every joint value within its joint's limits (a valid skeleton).
static int sk_within_limits(const sk_case *c, const ik_real *q)
{
    int i, k = 0;
    for (i = 0; i < c->joint_count; i++) {
        const ik_joint *j = &c->joints[i];
        if (ik_joint_type_dof(j->type) == 1 && !(q[k] >= j->lo && q[k] <= j->hi))
            return 0;
        if (j->type == IK_JOINT_BALL && j->limit &&
            !ik_ball_limit_contains(j->limit,
                                    ik_quat_from_expmap(ik_vec3_make(q[k], q[k + 1], q[k + 2]))))
            return 0;
        k += ik_joint_type_dof(j->type);
    }
    return 1;
}

// The checks of an IK_OK solve: q, info and the effectors' infos.
static void sk_check_answer(const sk_case *c, const ik_effector *e, const ik_real *q,
                            const ik_solve_info *info, const ik_effector_info *out)
{
    const ik_jacobian_opts o = c->null_opts ? ik_default_jacobian_opts() : c->opts;
    ik_real pos = 0, rot = 0;
    int k, all_met = 1;
    FZ_CHECK(fz_all_finite(q, c->dof));
    FZ_CHECK(sk_within_limits(c, q));
    if (info)
        FZ_CHECK(fz_info_valid(info));
    for (k = 0; out && k < c->count; k++) {
        FZ_CHECK(fz_finite(out[k].position_error) && out[k].position_error >= 0);
        FZ_CHECK(fz_finite(out[k].rotation_error) && out[k].rotation_error >= 0);
        FZ_CHECK(out[k].met == (out[k].position_error <= o.tolerance &&
                                out[k].rotation_error <= o.rotation_tolerance));
        if (e[k].kind == IK_EFFECTOR_POSITION)
            FZ_CHECK(out[k].rotation_error == 0);
        if (e[k].kind == IK_EFFECTOR_AIM || e[k].kind == IK_EFFECTOR_DIRECTION)
            FZ_CHECK(out[k].position_error == 0);
        all_met = all_met && out[k].met;
        pos = out[k].position_error > pos ? out[k].position_error : pos;
        rot = out[k].rotation_error > rot ? out[k].rotation_error : rot;
    }
    if (info && out) { // info: the largest errors; converged: every effector met
        FZ_CHECK(info->position_error == pos && info->rotation_error == rot);
        FZ_CHECK(info->status != IK_STATUS_CONVERGED || all_met);
    }
}

// The checks after a solve that returned r (overlap: an argument was inside the scratch;
// scratch_short: 1 short of what the solve needs, 2 of what ik_skeleton_scratch_size() says only).
static void sk_check_solve(const sk_case *c, ik_result r, int overlap, int scratch_short,
                           const ik_effector *e, const ik_real *q, const ik_solve_info *info,
                           const ik_effector_info *out, size_t out_bytes)
{
    int nulls =
        c->null_skeleton || c->null_joints || c->null_effectors || c->null_q || c->null_scratch;
    int bad = c->skeleton_bad || c->effectors_bad || c->q_bad || c->rest_bad || overlap;
    if (r == IK_OK) {
        FZ_CHECK(!nulls && !bad && !c->opts_bad && scratch_short != 1);
        sk_check_answer(c, e, q, info, out);
        return;
    }
    FZ_CHECK(memcmp(q, c->q0, (size_t)c->dof * sizeof *q) == 0);
    FZ_CHECK(!info || fz_untouched(info, sizeof *info));
    FZ_CHECK(!out || fz_untouched(out, out_bytes));
    switch (r) {
    case IK_ERR_NULL_ARG: FZ_CHECK(nulls); break;
    case IK_ERR_BAD_ARG: FZ_CHECK(bad); break;
    case IK_ERR_BAD_OPTS: FZ_CHECK(c->opts_bad); break;
    case IK_ERR_SCRATCH_TOO_SMALL: FZ_CHECK(scratch_short || c->skeleton_bad); break;
    case IK_ERR_NUMERIC: break; // documented (a value beyond the maximum)
    default: FZ_CHECK(0);
    }
}

// Whether an effector has a weight 0 (its rows are left out: the solve needs less scratch).
static int sk_weights_off(const sk_case *c)
{
    int k;
    for (k = 0; k < c->count && k < SK_EFFECTORS; k++)
        if (!(c->effectors[k].position_weight > 0) || !(c->effectors[k].rotation_weight > 0))
            return 1;
    return 0;
}

// A solve's arguments that may be placed inside the scratch.
typedef struct sk_args {
    const ik_effector *effectors;
    ik_real *q;
    ik_solve_info *info;
    ik_effector_info *out;
    size_t out_bytes; // the effectors' infos (and the effectors: as many)
} sk_args;

// One of the arguments copied inside the scratch (size > 0), from the bytes; whether it overlaps.
static int sk_place_inside(fz *f, sk_case *c, sk_args *a, unsigned char *scratch, size_t size)
{
    size_t at = (size_t)fz_int(f, 0, 65535) % size, jb = (size_t)c->joint_count;
    size_t reals = (size_t)c->dof * sizeof(ik_real), eb = a->out_bytes / sizeof *a->out;
    int overlap = 0;
    switch (fz_u8(f) % 7) {
    case SK_IN_Q: a->q = (ik_real *)sk_copy_into(a->q, reals, scratch, size, at, &overlap); break;
    case SK_IN_INFO:
        a->info =
            (ik_solve_info *)sk_copy_into(a->info, sizeof *a->info, scratch, size, at, &overlap);
        break;
    case SK_IN_OUT:
        a->out =
            (ik_effector_info *)sk_copy_into(a->out, a->out_bytes, scratch, size, at, &overlap);
        break;
    case SK_IN_EFFECTORS:
        a->effectors = (const ik_effector *)sk_copy_into(a->effectors, eb * sizeof *a->effectors,
                                                         scratch, size, at, &overlap);
        break;
    case SK_IN_PARENTS:
        c->skeleton.parents = (const int *)sk_copy_into(c->skeleton.parents, jb * sizeof(int),
                                                        scratch, size, at, &overlap);
        break;
    case SK_IN_JOINTS:
        c->skeleton.joints = (const ik_joint *)sk_copy_into(
            c->skeleton.joints, jb * sizeof(ik_joint), scratch, size, at, &overlap);
        break;
    default:
        c->opts.rest =
            (const ik_real *)sk_copy_into(c->opts.rest, reals, scratch, size, at, &overlap);
        overlap = overlap && !c->null_opts;
    }
    return overlap;
}

// ik_skeleton_solve on the case, with scratch and placements from the bytes.
// Whether two reals are the same to the bit.
static int sk_same_bits(ik_real a, ik_real b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

// The accepted solve again, twice, from the skeleton prepared for its effectors (a.q: its answer):
// the same q, info and effector infos to the bit, the prepared bytes unchanged.
static void sk_prepared(const sk_case *c, const sk_args *a)
{
    static unsigned char prepared[1 << 14], copy[1 << 14], work[1 << 19];
    const size_t need = ik_skeleton_prepared_size(&c->skeleton, a->effectors, c->count);
    ik_real q[SK_DOF];
    ik_solve_info info;
    ik_effector_info out[SK_EFFECTORS];
    int k, e;
    FZ_CHECK(need > 0 && need + 3 <= sizeof prepared);
    FZ_CHECK(ik_skeleton_prepare(&c->skeleton, a->effectors, c->count, prepared + 3, need) ==
             IK_OK);
    memcpy(copy, prepared + 3, need);
    for (k = 0; k < 2; k++) {
        memcpy(q, c->q0, (size_t)c->dof * sizeof *q);
        FZ_CHECK(ik_skeleton_solve_prepared(prepared + 3, a->effectors, c->count,
                                            c->null_opts ? NULL : &c->opts, q, work + k,
                                            sizeof work - k, &info, out) == IK_OK);
        FZ_CHECK(memcmp(q, a->q, (size_t)c->dof * sizeof *q) == 0);
        FZ_CHECK(!a->info ||
                 (info.status == a->info->status && info.iterations == a->info->iterations &&
                  sk_same_bits(info.position_error, a->info->position_error) &&
                  sk_same_bits(info.rotation_error, a->info->rotation_error)));
        for (e = 0; a->out && e < c->count; e++)
            FZ_CHECK(out[e].met == a->out[e].met &&
                     sk_same_bits(out[e].position_error, a->out[e].position_error) &&
                     sk_same_bits(out[e].rotation_error, a->out[e].rotation_error));
    }
    FZ_CHECK(memcmp(copy, prepared + 3, need) == 0);
}

static void sk_solve(fz *f, sk_case *c)
{
    static ik_real store[(1 << 19) / sizeof(ik_real)]; // scratch, and room past it
    static ik_solve_info info_mem;
    static ik_effector_info out_mem[SK_EFFECTORS];
    unsigned char *scratch = (unsigned char *)store + fz_u8(f) % 8; // any alignment
    const ik_skeleton *skeleton = c->null_skeleton ? NULL : &c->skeleton;
    sk_args a;
    size_t need, size;
    int overlap = 0, scratch_short = 0;
    ik_result r;
    a.effectors = c->null_effectors ? NULL : c->effectors;
    a.q = c->null_q ? NULL : c->q;
    a.info = fz_chance(f, 24) ? NULL : &info_mem;
    a.out = fz_chance(f, 24) ? NULL : out_mem;
    a.out_bytes = (size_t)(c->count < SK_EFFECTORS ? c->count : SK_EFFECTORS) * sizeof *a.out;
    need = size = ik_skeleton_scratch_size(skeleton, a.effectors, c->count);
    FZ_CHECK(!c->null_skeleton && !c->null_joints && !c->skeleton_bad && a.effectors &&
                     c->count >= 1 && c->count <= SK_EFFECTORS
                 ? need > 0
                 : need == 0);
    FZ_CHECK(need + 4096 < sizeof store);
    if (fz_chance(f, 12)) {
        // more than a real short: where the scratch is aligned, up to one real short, and with
        // weights 0 (rows left out) more, are enough for the solve (docs/robustness.md, "Known
        // limits")
        size_t less = sizeof(ik_real) + (size_t)fz_int(f, 1, 64);
        size = less > need ? 0 : need - less;
        scratch_short = sk_weights_off(c) ? 2 : 1;
    }
    memset(&info_mem, FZ_FILL, sizeof info_mem);
    memset(out_mem, FZ_FILL, sizeof out_mem);
    if (size > 0 && fz_chance(f, 16))
        overlap = sk_place_inside(f, c, &a, scratch, size);
    r = ik_skeleton_solve(skeleton, a.effectors, c->count, c->null_opts ? NULL : &c->opts, a.q,
                          c->null_scratch ? NULL : scratch, size, a.info, a.out);
    sk_check_solve(c, r, overlap, scratch_short, a.effectors, a.q ? a.q : c->q0, a.info, a.out,
                   a.out_bytes);
    if (r == IK_OK)
        sk_prepared(c, &a);
}

// Whether joint i is `joint` or one of its ancestors.
static int sk_on_path(const sk_case *c, int i, int joint)
{
    for (; joint >= 0; joint = c->skeleton.parents ? c->skeleton.parents[joint] : joint - 1)
        if (joint == i)
            return 1;
    return 0;
}

// The checks of an IK_OK Jacobian (valid skeleton): finite, zero off the joint's path.
static void sk_check_jacobian(const sk_case *c, int joint, const ik_real *jac)
{
    int i, k, col = 0;
    FZ_CHECK(fz_all_finite(jac, 6 * c->dof));
    for (i = 0; i < c->joint_count; i++) {
        int nd = ik_joint_type_dof(c->joints[i].type);
        for (k = 0; !sk_on_path(c, i, joint) && k < 6 * nd; k++)
            FZ_CHECK(jac[k / nd * c->dof + col + k % nd] == 0);
        col += nd;
    }
}

// ik_skeleton_fk's checks (r its answer; frames NULL or filled with FZ_FILL before, as *before).
static void sk_check_fk(const sk_case *c, ik_result r, int bad, int nulls, const ik_xform *frames,
                        const ik_real *before, size_t bytes)
{
    int i;
    if (r == IK_OK) {
        FZ_CHECK(!bad && !nulls && frames);
        for (i = 0; i < c->joint_count; i++)
            FZ_CHECK(fz_xform_finite(frames[i]) && ik_quat_is_unit(frames[i].rot, IK_R(1e-4)));
        return;
    }
    FZ_CHECK(!frames || memcmp(before, frames, bytes) == 0);
    FZ_CHECK(r == IK_ERR_NULL_ARG ? nulls || !frames : r == IK_ERR_BAD_ARG ? bad : 0);
}

// ik_skeleton_fk and ik_skeleton_jacobian at the case's q (the answer where the solve succeeded),
// sometimes with q inside an output.
static void sk_kinematics(fz *f, sk_case *c)
{
    // (room for q inside the frames of one call or the Jacobian from any of their reals)
    static ik_real frames_mem[2][SK_JOINTS * 7 + SK_DOF], jac_mem[7 * SK_DOF], before[7 * SK_DOF];
    const ik_skeleton *skeleton = c->null_skeleton ? NULL : &c->skeleton;
    ik_xform *frames = fz_chance(f, 8) ? NULL : (ik_xform *)(void *)frames_mem[0];
    ik_xform *frames2 = frames ? (ik_xform *)(void *)frames_mem[1] : NULL;
    ik_real *jac = fz_chance(f, 8) ? NULL : jac_mem, *q = c->null_q ? NULL : c->q;
    int joint = fz_int(f, 0, c->joint_count - 1), inside = fz_u8(f) % 16, at = fz_u8(f);
    int bad = c->skeleton_bad || c->q_bad, nulls = c->null_skeleton || c->null_joints || !q;
    int fk_overlap = q && frames && inside == 0 && c->dof > 0;
    int jac_overlap = q && jac && inside == 1 && c->dof > 0;
    ik_xform offset;
    ik_result r, rj;
    f->tainted = 0;
    offset = fz_xform(f, 1);
    if (fz_chance(f, 6))
        joint = fz_chance(f, 128) ? -1 : c->joint_count + fz_u8(f) % 3;
    memset(frames_mem, FZ_FILL, sizeof frames_mem);
    memset(jac_mem, FZ_FILL, sizeof jac_mem);
    if (fk_overlap || jac_overlap) { // q inside the frames (7 reals a joint) or the Jacobian
        q = fk_overlap ? frames_mem[0] + at % (7 * c->joint_count) : jac_mem + at % (6 * c->dof);
        memcpy(q, c->q0, (size_t)c->dof * sizeof *q);
    }
    memcpy(before, frames_mem[0], sizeof frames_mem[0]);
    r = ik_skeleton_fk(skeleton, q, frames);
    sk_check_fk(c, r, bad || fk_overlap, nulls, frames, before, sizeof frames_mem[0]);
    memcpy(before, jac_mem, sizeof jac_mem);
    rj = ik_skeleton_jacobian(skeleton, q, joint, offset, jac, frames2);
    bad = bad || jac_overlap || f->tainted || joint < 0 || joint >= c->joint_count;
    if (rj == IK_OK) {
        FZ_CHECK(!bad && !nulls && jac && frames2);
        if (r == IK_OK) // the same frames as FK's
            FZ_CHECK(memcmp(frames, frames2, (size_t)c->joint_count * sizeof *frames) == 0);
        sk_check_jacobian(c, joint, jac);
        return;
    }
    FZ_CHECK(memcmp(before, jac_mem, sizeof jac_mem) == 0);
    FZ_CHECK(!frames2 || fz_untouched(frames2, sizeof frames_mem[1]));
    FZ_CHECK(rj == IK_ERR_NULL_ARG ? nulls || !frames2 || !jac : rj == IK_ERR_BAD_ARG ? bad : 0);
}

FUZZ_TARGET(skeleton)
{
    static sk_case c;
    fz f = fz_begin(data, size);
    sk_case_make(&f, &c);
    sk_solve(&f, &c);
    sk_kinematics(&f, &c);
    return 0;
}
