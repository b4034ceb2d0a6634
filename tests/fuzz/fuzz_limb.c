/* Fuzz target: the analytic limb. ik_limb_solve, ik_limb_swivel, ik_limb_chain, with limbs,
   targets, options, states and limits from the bytes. On IK_OK: finite q and pose, unit
   rotations, a valid status, the wrist where the status says (converged: at the target), and
   with limits every joint within them. On error:
   q, out_pose, info untouched, and an error code that matches what was wrong. */
#include "fuzz.h"

// Relative to the limb's size. Not the rounding level: at full fold or full extension the
// wrist distance is a square root of a cancelling difference, good to sqrt(epsilon) only.
#ifdef IK_USE_FLOAT
#define FZ_LIMB_TOL 3e-3
#else
#define FZ_LIMB_TOL 1e-6
#endif

// A ball limit from the bytes, made by ik_ball_limit_make() (a default where that refuses the
// bytes), its cone maybe broken after: whether ik.h must reject it (a semi-axis outside [0, 1],
// or subnormal: a half-angle below about 4 REAL_MIN).
static int fuzz_ball_limit(fz *f, ik_ball_limit *b)
{
    ik_real sx = IK_FABS(fz_real(f, 3)), sy = IK_FABS(fz_real(f, 3)), lo = fz_real(f, 3);
    ik_real hi = lo + IK_FABS(fz_real(f, 3));
    ik_vec3 z = fz_vec3(f, 1), x = fz_vec3(f, 1);
    if (ik_ball_limit_make(z, x, sx, sy, lo, hi, b) != IK_OK)
        ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_PI, IK_PI, -IK_PI,
                           IK_PI, b);
    if (fz_chance(f, 8)) // a field broken after the make
        b->cone[0] = fz_real(f, 2);
    return !(b->cone[0] == 0 || (b->cone[0] >= IK__REAL_MIN && b->cone[0] <= 1)) ||
           (b->cone[1] > 0 && b->cone[1] < IK__REAL_MIN);
}

// Limits for the limb from the bytes (about a quarter of the inputs; none once the bytes run
// out): an elbow range (maybe lo > hi, NaN, or outside the bending branch) and ball limits (maybe
// broken). *bad: limits ik.h must reject; 2 where the range touches the branch's end within
// rounding (either answer is right).
static const ik_limb_limits *fuzz_limits(fz *f, const ik_limb *limb, ik_limb_limits *lim, int *bad)
{
    ik_limb free_limb = *limb;
    ik_limb_prepared g;
    int saved = f->tainted;
    *bad = 0;
    if (fz_u8(f) < 192)
        return NULL;
    f->tainted = 0;
    lim->elbow_lo = fz_real(f, 4);
    lim->elbow_hi = fz_chance(f, 16) ? fz_real(f, 4) : lim->elbow_lo + IK_FABS(fz_real(f, 4));
    *bad = fuzz_ball_limit(f, &lim->shoulder);
    *bad = fuzz_ball_limit(f, &lim->wrist) || *bad;
    *bad = *bad || !fz_bounded(lim->elbow_lo) || !fz_bounded(lim->elbow_hi) ||
           !(lim->elbow_lo <= lim->elbow_hi);
    f->tainted = saved;
    free_limb.limits = NULL;
    if (!*bad && ik_limb_prepare(&free_limb, &g) == IK_OK) {
        double lo = (double)lim->elbow_lo > (double)g.t0 ? (double)lim->elbow_lo : (double)g.t0;
        double hi = (double)lim->elbow_hi < (double)g.t0 + 3.141592653589793
                        ? (double)lim->elbow_hi
                        : (double)g.t0 + 3.141592653589793;
        *bad = lo > hi + 1e-6 ? 1 : (lo > hi - 1e-6 ? 2 : 0);
    }
    return lim;
}

// Whether the answer q is within the limits (the elbow to rounding).
static int fuzz_within_limits(const ik_limb_limits *lim, const ik_real *q)
{
    double slack = 64 * (double)IK_EPSILON * (1 + fabs((double)q[3]));
    return ik_ball_limit_contains(&lim->shoulder,
                                  ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2]))) &&
           ik_ball_limit_contains(&lim->wrist,
                                  ik_quat_from_expmap(ik_vec3_make(q[4], q[5], q[6]))) &&
           (double)q[3] >= (double)lim->elbow_lo - slack &&
           (double)q[3] <= (double)lim->elbow_hi + slack;
}

// Whether the limb is one ik.h must reject (the header's list), by the harness's own reading.
static int limb_bad(const ik_limb *l)
{
    ik_vec3 u = ik_vec3_normalize(l->upper_dir), w = ik_vec3_normalize(l->lower_dir);
    ik_vec3 h = ik_vec3_normalize(l->hinge_axis), d1, d2;
    double rg;
    if (ik_vec3_length2(u) == 0 || ik_vec3_length2(w) == 0 || ik_vec3_length2(h) == 0)
        return 1;
    if (!fz_quat_normalizable(l->base.rot) || !(l->upper_length >= 0) || !(l->lower_length >= 0))
        return 1;
    // hinge along a bone (or both bones along the hinge): the reach cannot change. The solver
    // rejects below 1e-6; near that, either answer is right.
    d1 = ik_vec3_sub(u, ik_vec3_scale(h, ik_vec3_dot(u, h)));
    d2 = ik_vec3_sub(w, ik_vec3_scale(h, ik_vec3_dot(w, h)));
    rg = (double)(ik_vec3_length(d1) * ik_vec3_length(d2));
    return l->upper_length > 0 && l->lower_length > 0 && rg < 2e-6 ? 2 : 0;
}

FUZZ_TARGET(limb)
{
    fz f = fz_begin(data, size);
    ik_limb limb;
    ik_limb_target tg;
    ik_limb_opts opts = ik_default_limb_opts();
    ik_limb_pose pose;
    ik_solve_info info;
    ik_real q[7], q0[7], sw;
    int i, bad, target_bad, q_bad, opts_bad = 0, geo, pose_bad = 0;
    ik_limb_pose pose0;
    ik_limb_limits limits;
    int limits_bad;
    int null_limb = fz_chance(&f, 4), null_target = fz_chance(&f, 4), null_q = fz_chance(&f, 4);
    int null_pose = fz_chance(&f, 32), null_info = fz_chance(&f, 32);
    int null_opts = fz_chance(&f, 32);
    double scale = fz_chance(&f, 64) ? (fz_u8(&f) & 1 ? 1e-3 : 1e3) : 1;
    ik_result r;

    limb.base.rot = fz_quat(&f, 0);
    limb.base.pos = fz_vec3(&f, scale);
    limb.upper_dir = fz_vec3(&f, 1);
    limb.upper_length = fz_length(&f, scale);
    limb.lower_dir = fz_chance(&f, 64) ? limb.upper_dir : fz_vec3(&f, 1);
    limb.lower_length = fz_length(&f, scale);
    {
        // the limb normalizes its axes: a non-unit one is fine, a zero one is bad (limb_bad)
        int saved = f.tainted;
        limb.hinge_axis = fz_chance(&f, 128) ? fz_vec3(&f, 1) : fz_axis(&f);
        f.tainted = saved || !fz_vec3_bounded(limb.hinge_axis);
    }
    limb.swivel_ref = fz_vec3(&f, 1);
    limb.limits = NULL;
    bad = f.tainted;
    geo = limb_bad(&limb);

    f.tainted = 0;
    tg.pos = fz_vec3(&f, scale);
    tg.use_rotation = fz_u8(&f) & 1;
    tg.use_swivel = fz_u8(&f) & 1;
    tg.pole = fz_chance(&f, 16) ? tg.pos : fz_vec3(&f, scale);
    tg.swivel = fz_real(&f, 4);
    target_bad = f.tainted;
    f.tainted = 0;
    tg.rot = fz_quat(&f, 0);
    target_bad = target_bad || (tg.use_rotation && f.tainted); // an unused rotation may be anything

    f.tainted = 0;
    for (i = 0; i < 7; i++)
        q[i] = fz_chance(&f, 200) ? fz_real(&f, 1) : 0;
    q_bad = f.tainted;
    memcpy(q0, q, sizeof q);

    if (fz_chance(&f, 32)) {
        f.tainted = 0;
        opts.softness = fz_real(&f, scale / 4);
        opts.pole_band = fz_chance(&f, 128) ? fz_real(&f, 0.25) : opts.pole_band;
        opts_bad =
            f.tainted || !(opts.softness >= 0) || !(opts.pole_band > 0 && opts.pole_band < 1);
    }
    if (fz_chance(&f, 4)) {
        opts._valid ^= 1 + fz_u8(&f); // options not from ik_default_limb_opts()
        opts_bad = 1;
    }
    if (null_opts)
        opts_bad = 0; // NULL options mean the defaults

    memset(&pose, FZ_FILL, sizeof pose);
    if (null_q && !null_pose) { // without q the pose is the current state (in and out)
        f.tainted = 0;
        pose.shoulder = fz_quat(&f, 0);
        pose.elbow = fz_real(&f, 1);
        pose.wrist = fz_quat(&f, 0);
        pose_bad = f.tainted;
    }
    pose0 = pose;
    limb.limits = fuzz_limits(&f, &limb, &limits, &limits_bad);
    memset(&info, FZ_FILL, sizeof info);
    r = ik_limb_solve(null_limb ? NULL : &limb, null_target ? NULL : &tg, null_opts ? NULL : &opts,
                      null_q ? NULL : q, null_pose ? NULL : &pose, null_info ? NULL : &info);
    if (r == IK_OK) {
        FZ_CHECK(!null_limb && !null_target && !(null_q && null_pose));
        FZ_CHECK(!bad && geo != 1 && limits_bad != 1);
        FZ_CHECK(!target_bad);
        FZ_CHECK(null_q ? !pose_bad : !q_bad);
        FZ_CHECK(!opts_bad);
        FZ_CHECK(null_q || fz_all_finite(q, 7)); // (without q, q is the harness's own array)
        if (!null_info) {
            FZ_CHECK(fz_info_valid(&info));
            FZ_CHECK(info.status == IK_STATUS_CONVERGED || info.status == IK_STATUS_UNREACHABLE ||
                     (limb.limits && info.status == IK_STATUS_LIMITED));
        }
        if (!null_pose)
            FZ_CHECK(ik_quat_is_unit(pose.shoulder, IK_R(1e-4)) &&
                     ik_quat_is_unit(pose.wrist, IK_R(1e-4)) && fz_finite(pose.elbow));
        {
            // the answer is the chain's FK: converged means the wrist is at the target
            ik_joint j[3];
            ik_xform tip, eff;
            ik_chain ch;
            double reach = (double)(limb.upper_length + limb.lower_length);
            if (null_q) { // the answer is the pose: its joint values
                ik_vec3 vs = ik_quat_to_expmap(pose.shoulder), vw = ik_quat_to_expmap(pose.wrist);
                q[0] = vs.x, q[1] = vs.y, q[2] = vs.z, q[3] = pose.elbow;
                q[4] = vw.x, q[5] = vw.y, q[6] = vw.z;
            }
            FZ_CHECK(ik_limb_chain(&limb, j, &tip) == IK_OK);
            ch = ik_chain_make(j, 3, tip);
            FZ_CHECK(ik_chain_fk(&ch, q, NULL, &eff) == IK_OK);
            FZ_CHECK(fz_xform_finite(eff));
            // with limits, every joint within them (the rotations as the limb wrote them)
            if (limb.limits && !null_q)
                FZ_CHECK(fuzz_within_limits(limb.limits, q));
            if (limb.limits && null_q && !null_pose)
                FZ_CHECK(ik_ball_limit_contains(&limits.shoulder, pose.shoulder) &&
                         ik_ball_limit_contains(&limits.wrist, pose.wrist));
            // (the limb solves in units of its own length, so that squares do not underflow;
            // denormal lengths carry too few digits for the tolerance)
            if (!null_info && info.status == IK_STATUS_CONVERGED &&
                reach > 1e3 * (double)IK__REAL_MIN)
                FZ_CHECK(fz_dist(eff.pos, tg.pos) <=
                         FZ_LIMB_TOL * (reach + (double)ik_vec3_length(limb.base.pos) +
                                        (double)ik_vec3_length(tg.pos)));
        }
    } else {
        FZ_CHECK(memcmp(q, q0, sizeof q) == 0);
        FZ_CHECK(memcmp(&pose, &pose0, sizeof pose) == 0 && fz_untouched(&info, sizeof info));
        switch (r) {
        case IK_ERR_NULL_ARG: FZ_CHECK(null_limb || null_target || (null_q && null_pose)); break;
        case IK_ERR_BAD_ARG:
            FZ_CHECK(bad || geo || limits_bad || target_bad || (null_q ? pose_bad : q_bad));
            break;
        case IK_ERR_BAD_OPTS: FZ_CHECK(opts_bad); break;
        default: FZ_CHECK(0);
        }
    }

    memset(&sw, FZ_FILL, sizeof sw);
    r = ik_limb_swivel(null_limb ? NULL : &limb, null_q ? NULL : q, fz_chance(&f, 8) ? NULL : &sw);
    if (r == IK_OK) {
        FZ_CHECK(fz_finite(sw) && sw > -IK_PI && sw <= IK_PI);
        FZ_CHECK(!bad && geo != 1 && limits_bad != 1);
    } else {
        FZ_CHECK(fz_untouched(&sw, sizeof sw));
        FZ_CHECK(r == IK_ERR_NULL_ARG ||
                 (r == IK_ERR_BAD_ARG && (bad || geo || limits_bad || q_bad)));
    }
    {
        ik_joint j[3];
        ik_xform tip;
        memset(j, FZ_FILL, sizeof j);
        memset(&tip, FZ_FILL, sizeof tip);
        r = ik_limb_chain(null_limb ? NULL : &limb, j, &tip);
        if (r == IK_OK) {
            ik_chain ch = ik_chain_make(j, 3, tip);
            FZ_CHECK(ik_chain_validate(&ch) == IK_OK && ik_chain_dof(&ch) == 7);
        } else {
            FZ_CHECK(fz_untouched(j, sizeof j) && fz_untouched(&tip, sizeof tip));
            FZ_CHECK(r == IK_ERR_NULL_ARG ? null_limb
                                          : (r == IK_ERR_BAD_ARG && (bad || geo || limits_bad)));
        }
    }
    return 0;
}
