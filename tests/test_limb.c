/* Analytic 7-DOF limb: FK(IK(x)) = x on random limbs, pole plane, swivel round trip, reach,
   soft reach, degenerate cases, continuity, bad input. */
#include "test.h"
#include <string.h>

// A random limb: any bone directions and hinge axis (not along a bone), lengths 0.1 .. 2.
static ik_limb random_limb(test_rng *r)
{
    ik_limb l;
    for (;;) {
        ik_quat rot = test_rng_quat(r); // one draw per statement (argument order is unspecified)
        l.base = ik_xform_make(rot, test_rng_vec3(r, -1, 1));
        l.upper_dir = ik_vec3_normalize(test_rng_vec3(r, -1, 1));
        l.lower_dir = test_rng_uniform(r, 0, 1) < 0.5 ? l.upper_dir
                                                      : ik_vec3_normalize(test_rng_vec3(r, -1, 1));
        l.hinge_axis = ik_vec3_normalize(test_rng_vec3(r, -1, 1));
        l.upper_length = (ik_real)test_rng_uniform(r, 0.1, 2);
        l.lower_length = (ik_real)test_rng_uniform(r, 0.1, 2);
        l.swivel_ref = test_rng_vec3(r, -1, 1);
        l.limits = NULL;
        // keep the hinge well away from the bones: a near-parallel hinge makes the elbow angle
        // ill-conditioned (a tiny reach change needs a huge angle change)
        if (fabs((double)ik_vec3_dot(l.hinge_axis, l.upper_dir)) < 0.9 &&
            fabs((double)ik_vec3_dot(l.hinge_axis, l.lower_dir)) < 0.9)
            return l;
    }
}

// A human-like right arm: T-pose along +x, elbow hinge about +z... bending forward.
static ik_limb human_arm(void)
{
    ik_limb l;
    l.base = ik_xform_translation(ik_vec3_make(IK_R(0.2), 0, IK_R(1.4)));
    l.upper_dir = ik_vec3_make(1, 0, 0);
    l.lower_dir = ik_vec3_make(1, 0, 0);
    l.hinge_axis = ik_vec3_make(0, 0, 1);
    l.upper_length = IK_R(0.30);
    l.lower_length = IK_R(0.25);
    l.swivel_ref = ik_vec3_make(0, 0, -1);
    l.limits = NULL;
    return l;
}

static void random_q(test_rng *r, ik_real *q)
{
    int i;
    for (i = 0; i < 7; i++)
        q[i] = (ik_real)test_rng_uniform(r, -2, 2);
}

// FK through the matching chain: shoulder, elbow and wrist frames.
static void limb_fk(const ik_limb *l, const ik_real *q, ik_xform *frames, ik_xform *wrist)
{
    ik_joint j[3];
    ik_xform tip;
    ik_chain c;
    ik_limb_chain(l, j, &tip);
    c = ik_chain_make(j, 3, tip);
    ik_chain_fk(&c, q, frames, wrist);
}

static ik_limb_target target_of(ik_xform pose, ik_vec3 pole)
{
    ik_limb_target t;
    t.pos = pose.pos;
    t.rot = pose.rot;
    t.use_rotation = true;
    t.use_swivel = false;
    t.pole = pole;
    t.swivel = 0;
    return t;
}

// Reachable targets (FK of a random pose) are met exactly; the elbow lies in the pole's
// half-plane. 10^5 random limbs in double (10^4 in float, same property).
static void test_limb_random_reach(void)
{
    test_rng r = { 21 };
#ifdef IK_USE_FLOAT
    const int trials = 10000;
    const double tol = 2e-4; // float: a few ulps of the 7 rotations and lengths up to 4
#else
    const int trials = 100000;
    const double tol = 1e-12;
#endif
    int i, bad_pos = 0, bad_rot = 0, bad_plane = 0, bad_side = 0, bad_status = 0;
    double worst_pos = 0, worst_rot = 0;
    for (i = 0; i < trials; i++) {
        ik_limb l = random_limb(&r);
        ik_real qtrue[7], q[7];
        ik_xform goal, frames[3], got;
        ik_limb_target t;
        ik_solve_info info;
        ik_vec3 pole = ik_vec3_add(l.base.pos, test_rng_vec3(&r, -3, 3)), n, e, p;
        double dpos, drot, scale = (double)(l.upper_length + l.lower_length);
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, NULL, &goal);
        t = target_of(goal, pole);
        random_q(&r, q); // any current pose
        if (ik_limb_solve(&l, &t, NULL, q, NULL, &info) != IK_OK) {
            bad_status++;
            continue;
        }
        limb_fk(&l, q, frames, &got);
        dpos = test_vec3_dist(got.pos, goal.pos) / scale;
        drot = test_quat_angle(got.rot, goal.rot);
        if (dpos > worst_pos)
            worst_pos = dpos;
        if (drot > worst_rot)
            worst_rot = drot;
        bad_pos += dpos > tol;
        bad_rot += drot > tol;
        bad_status += info.status != IK_STATUS_CONVERGED;
        // elbow in the plane through the pole and the shoulder-wrist line, on the pole's side
        n = ik_vec3_normalize(ik_vec3_sub(goal.pos, l.base.pos));
        e = ik_vec3_sub(frames[1].pos, l.base.pos);
        e = ik_vec3_add_scaled(e, n, -ik_vec3_dot(e, n));
        p = ik_vec3_sub(pole, l.base.pos);
        p = ik_vec3_add_scaled(p, n, -ik_vec3_dot(p, n));
        // (a pole within pole_band = 1% of the limb's length from the line is blended instead)
        if ((double)ik_vec3_length(e) > 1e-3 * scale && (double)ik_vec3_length(p) > 0.011 * scale) {
            ik_vec3 eu = ik_vec3_normalize(e), pu = ik_vec3_normalize(p);
            bad_plane += (double)ik_vec3_length(ik_vec3_cross(eu, pu)) > tol * 1e3;
            bad_side += ik_vec3_dot(eu, pu) <= 0;
        }
    }
    printf("  limb: %d random limbs, worst position error %.2e (relative), rotation %.2e rad\n",
           trials, worst_pos, worst_rot);
    CHECK(bad_pos == 0);
    CHECK(bad_rot == 0);
    CHECK(bad_plane == 0);
    CHECK(bad_side == 0);
    CHECK(bad_status == 0);
}

// swivel(q) then solving with that swivel reproduces the pose; solving with a swivel gives it.
static void test_limb_swivel_round_trip(void)
{
    test_rng r = { 22 };
    int i;
    for (i = 0; i < 2000; i++) {
        ik_limb l = random_limb(&r);
        ik_real qtrue[7], q[7], sw, sw2, want;
        ik_xform goal, ft[3], fq[3];
        ik_limb_target t;
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, ft, &goal);
        CHECK(ik_limb_swivel(&l, qtrue, &sw) == IK_OK);
        t = target_of(goal, ik_vec3_zero());
        t.use_swivel = true;
        t.swivel = sw;
        memset(q, 0, sizeof q);
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        limb_fk(&l, q, fq, NULL);
        // same elbow position: the pose is the same up to the elbow's own redundancy (none)
        CHECK_NEAR(test_vec3_dist(fq[1].pos, ft[1].pos), 0, TOL(1e-11, 2e-4));
        // and a requested swivel is the one the result has
        want = (ik_real)test_rng_uniform(&r, -3.1, 3.1);
        t.swivel = want;
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        CHECK(ik_limb_swivel(&l, q, &sw2) == IK_OK);
        CHECK_NEAR(sw2, want, TOL(1e-11, 2e-4));
    }
}

// With swivel_ref inside the pole band of a pose's shoulder-wrist line (or on it), solving from
// that pose with the pose's own swivel keeps the pose: the swivel turns swivel_ref's side, and
// the band's cone is put about that (before, the side kept in the band was turned again).
static void test_limb_swivel_in_band(void)
{
    test_rng r = { 28 };
    int i, k, same_bend = 0;
    for (i = 0; i < 2000; i++) {
        ik_limb l = random_limb(&r);
        ik_real qtrue[7], q[7], sw;
        ik_xform goal, ft[3], fq[3];
        ik_limb_target t;
        ik_vec3 line;
        double sine = i % 4 == 0 ? 0 : test_rng_uniform(&r, 1e-4, 0.0099);
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, ft, &goal);
        line = ik_vec3_normalize(ik_vec3_sub(goal.pos, l.base.pos));
        l.swivel_ref = ik_vec3_add_scaled(ik_vec3_scale(line, i % 2 ? -1 : 1),
                                          ik_vec3_any_perpendicular(line), (ik_real)sine);
        CHECK(ik_limb_swivel(&l, qtrue, &sw) == IK_OK);
        t = target_of(goal, ik_vec3_zero());
        t.use_swivel = true;
        t.swivel = sw;
        memcpy(q, qtrue, sizeof q);
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        limb_fk(&l, q, fq, NULL);
        // (float: near the ends of the reach the elbow angle moves by up to ~1e-3 for a one-ulp
        // change of the reach, acos being steep near +-1, and the elbow with it)
        CHECK_NEAR(test_vec3_dist(fq[1].pos, ft[1].pos), 0, TOL(1e-11, 2e-3));
        // a pose bent the solver's way (positive bend) is kept as it is
        if (fabs((double)q[3] - (double)qtrue[3]) <= 1e-3) {
            same_bend++;
            for (k = 0; k < 7; k++)
                CHECK_NEAR(q[k], qtrue[k], TOL(1e-11, 2e-3));
        }
    }
    CHECK(same_bend > 500);
}

// Beyond reach: straight toward the target. Too close: folded as far as it goes.
static void test_limb_reach_limits(void)
{
    ik_limb l = human_arm();
    ik_real q[7] = { 0, 0, 0, IK_R(0.5), 0, 0, 0 };
    ik_limb_target t;
    ik_solve_info info;
    ik_xform frames[3], w;
    ik_vec3 dir = ik_vec3_normalize(ik_vec3_make(1, 1, -1)), d;
    t = target_of(ik_xform_translation(ik_vec3_add_scaled(l.base.pos, dir, 2)),
                  ik_vec3_make(0, -1, 0));
    t.use_rotation = false;
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE);
    limb_fk(&l, q, frames, &w);
    d = ik_vec3_sub(w.pos, l.base.pos);
    CHECK_NEAR(ik_vec3_length(d), 0.55, TOL(1e-14, 1e-6));
    CHECK_NEAR(test_vec3_dist(ik_vec3_normalize(d), dir), 0, TOL(1e-14, 1e-6));
    CHECK_NEAR(q[3], 0, TOL(1e-14, 1e-6)); // straight
    CHECK_NEAR(info.position_error, 2 - 0.55, TOL(1e-14, 1e-6));

    // closer than |L1 - L2| = 0.05: folded (elbow angle pi), wrist 0.05 from the shoulder
    t.pos = ik_vec3_add_scaled(l.base.pos, dir, IK_R(0.01));
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE);
    limb_fk(&l, q, frames, &w);
    d = ik_vec3_sub(w.pos, l.base.pos);
    CHECK_NEAR(ik_vec3_length(d), 0.05, TOL(1e-14, 1e-6));
    CHECK_NEAR(test_vec3_dist(ik_vec3_normalize(d), dir), 0, TOL(1e-12, 1e-5));
    CHECK_NEAR(fabs((double)q[3]), 3.141592653589793, TOL(1e-7, 1e-3));

    // exactly at full reach: met
    t.pos = ik_vec3_add_scaled(l.base.pos, dir, IK_R(0.55));
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_CONVERGED);
    CHECK_NEAR(info.position_error, 0, TOL(1e-14, 1e-6));
}

// Soft reach: the wrist distance rises smoothly and monotonically, and never snaps straight.
static void test_limb_soft_reach(void)
{
    ik_limb l = human_arm();
    ik_limb_opts o = ik_default_limb_opts();
    ik_real q[7] = { 0, 0, 0, IK_R(0.5), 0, 0, 0 };
    ik_limb_target t;
    ik_solve_info info;
    ik_vec3 dir = ik_vec3_make(0, 1, 0);
    double prev = 0, d, max_jump = 0;
    int i, monotone = 1;
    o.softness = IK_R(0.05);
    t = target_of(ik_xform_identity(), ik_vec3_make(0, 0, -1));
    t.use_rotation = false;
    for (i = 0; i <= 1000; i++) {
        ik_xform w;
        double want = 0.3 + 0.5 * i / 1000.0;
        t.pos = ik_vec3_add_scaled(l.base.pos, dir, (ik_real)want);
        CHECK(ik_limb_solve(&l, &t, &o, q, NULL, &info) == IK_OK);
        limb_fk(&l, q, NULL, &w);
        d = (double)ik_vec3_length(ik_vec3_sub(w.pos, l.base.pos));
        if (i > 0) {
            monotone &= d >= prev - 1e-12;
            if (d - prev > max_jump)
                max_jump = d - prev;
        }
        prev = d;
        CHECK(d < 0.55);
        if (want < 0.5 - 1e-9)
            CHECK_NEAR(d, want, TOL(1e-12, 1e-5));
        CHECK(info.status == (want < 0.5 - 1e-9 ? IK_STATUS_CONVERGED : IK_STATUS_UNREACHABLE) ||
              fabs(want - 0.5) < 1e-6);
    }
    CHECK(monotone);
    CHECK(max_jump <= 0.5 / 1000 + TOL(1e-9, 1e-6)); // slope at most 1
    // at 6 softness lengths past the start, 6/7 of the soft zone is used: approaching full reach
    CHECK(prev > 0.5 + 0.05 * 6.0 / 7.0 - TOL(1e-9, 1e-6));
    // far targets: the soft reach keeps approaching full reach, as the formula says
    // (D' = Dmax - s s / (D - Dmax + 2 s)): the wrist's distance grows with the target's up to
    // 1e12 (review: a cap of the distance at 1e6 limb lengths had stopped it there)
    {
        double far[4] = { 1e3, 1e6, 1e9, 1e12 }, last = 0;
        for (i = 0; i < 4; i++) {
            ik_xform w;
            double D = far[i], s = 0.05, want = 0.55 - s * s / (D - 0.55 + 2 * s);
            t.pos = ik_vec3_add_scaled(l.base.pos, dir, (ik_real)D);
            CHECK(ik_limb_solve(&l, &t, &o, q, NULL, &info) == IK_OK);
            limb_fk(&l, q, NULL, &w);
            d = (double)ik_vec3_length(ik_vec3_sub(w.pos, l.base.pos));
            CHECK_NEAR(d, want, TOL(1e-9, 1e-5));
            CHECK(i == 0 || d >= last);
            last = d;
        }
    }
    o.softness = -1;
    CHECK(ik_limb_solve(&l, &t, &o, q, NULL, &info) == IK_ERR_BAD_OPTS);
}

// A pole far away, just outside the band (offset 0.05 from the shoulder-wrist line at 1e4,
// band 0.02 for this limb): the elbow goes to the pole's side, whatever side it came from, in
// float too (review: a rounding-noise test of 64 epsilon of the pole's distance had called it
// "no side" up to 0.077 in float, and the elbow then jumped sides at 0.077).
static void test_limb_far_pole(void)
{
    ik_limb l;
    ik_limb_target t;
    ik_real q[7] = { 0, 0, 0, 0, 0, 0, 0 };
    ik_xform frames[3], w;
    int k;
    l.base = ik_xform_identity();
    l.upper_dir = l.lower_dir = ik_vec3_make(1, 0, 0);
    l.hinge_axis = ik_vec3_make(0, 0, 1);
    l.upper_length = l.lower_length = 1;
    l.swivel_ref = ik_vec3_make(0, 1, 0);
    l.limits = NULL;
    t = target_of(ik_xform_translation(ik_vec3_make(IK_R(1.5), 0, 0)), ik_vec3_zero());
    t.use_rotation = false;
    for (k = 0; k < 2; k++) {
        q[3] = k ? IK_R(-1.0) : IK_R(1.0); // the elbow coming from either side
        t.pole = ik_vec3_make(IK_R(1e4), IK_R(0.05), 0);
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        limb_fk(&l, q, frames, &w);
        CHECK(frames[1].pos.y > IK_R(0.1)); // the elbow on the pole's (+y) side
        CHECK_NEAR(test_vec3_dist(w.pos, t.pos), 0, TOL(1e-12, 1e-5));
    }
}

// Degenerate inputs: finite answers, and the documented ones.
static void test_limb_degenerate(void)
{
    ik_limb l = human_arm();
    ik_real q[7] = { 0, IK_R(0.3), IK_R(-0.2), IK_R(1.0), 0, 0, 0 }, q0[7];
    ik_limb_target t;
    ik_solve_info info;
    ik_xform frames[3], w, before[3];
    ik_vec3 n, side_before, side_after;
    int i;
    // pole exactly on the shoulder-wrist line: the elbow keeps its current side
    memcpy(q0, q, sizeof q);
    limb_fk(&l, q, before, &w);
    t = target_of(ik_xform_translation(w.pos),
                  ik_vec3_add_scaled(l.base.pos, ik_vec3_sub(w.pos, l.base.pos), 3));
    t.use_rotation = false;
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    limb_fk(&l, q, frames, &w);
    n = ik_vec3_normalize(ik_vec3_sub(t.pos, l.base.pos));
    side_before = ik_vec3_sub(before[1].pos, l.base.pos);
    side_before =
        ik_vec3_normalize(ik_vec3_add_scaled(side_before, n, -ik_vec3_dot(side_before, n)));
    side_after = ik_vec3_sub(frames[1].pos, l.base.pos);
    side_after = ik_vec3_normalize(ik_vec3_add_scaled(side_after, n, -ik_vec3_dot(side_after, n)));
    CHECK_NEAR(test_vec3_dist(side_before, side_after), 0, TOL(1e-12, 1e-5));
    CHECK_NEAR(test_vec3_dist(w.pos, t.pos), 0, TOL(1e-14, 1e-6));
    for (i = 0; i < 7; i++)
        CHECK_NEAR(q[i], q0[i], TOL(1e-12, 1e-5)); // the pose was already a solution
    // pole at the shoulder (zero reference): same answer
    t.pole = l.base.pos;
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    for (i = 0; i < 7; i++)
        CHECK_NEAR(q[i], q0[i], TOL(1e-12, 1e-5));

    // target at the shoulder: folded as far as it goes, pointing where it pointed
    t.pos = l.base.pos;
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE);
    limb_fk(&l, q, frames, &w);
    CHECK(ik_vec3_is_finite(w.pos));
    CHECK_NEAR(ik_vec3_length(ik_vec3_sub(w.pos, l.base.pos)), 0.05, TOL(1e-14, 1e-6));

    // zero-length bones: finite; with L1 = L2 the target at the shoulder is reachable
    l.upper_length = 0;
    t.pos = ik_vec3_add(l.base.pos, ik_vec3_make(0, IK_R(0.25), 0));
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_CONVERGED);
    limb_fk(&l, q, frames, &w);
    CHECK_NEAR(test_vec3_dist(w.pos, t.pos), 0, TOL(1e-14, 1e-6));
    l.lower_length = 0;
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_UNREACHABLE);
    for (i = 0; i < 7; i++)
        CHECK(test_finite((double)q[i]));
    l = human_arm();
    l.upper_length = l.lower_length = IK_R(0.3);
    t.pos = l.base.pos;
    CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(info.status == IK_STATUS_CONVERGED);
    limb_fk(&l, q, frames, &w);
    CHECK_NEAR(test_vec3_dist(w.pos, t.pos), 0, TOL(1e-14, 1e-6));
}

// Continuity: a target and a pole moving by tiny steps, through the pole band and full extension,
// move the joint values by tiny steps.
static void test_limb_continuity(void)
{
    ik_limb l = human_arm();
    ik_real q[7] = { 0, 0, 0, IK_R(0.3), 0, 0, 0 }, prev[7];
    ik_limb_target t;
    int i, k, steps = 20000;
    double worst = 0;
    t = target_of(ik_xform_identity(), ik_vec3_zero());
    for (i = 0; i <= steps; i++) {
        double s = (double)i / steps, a = 6.283185307179586 * s;
        ik_vec3 off = ik_vec3_make((ik_real)(0.3 + 0.27 * cos(a)), (ik_real)(0.2 * sin(2 * a)),
                                   (ik_real)(-0.1 * sin(a)));
        t.pos = ik_vec3_add(l.base.pos, off);
        // the pole sweeps around and crosses the shoulder-wrist line near s = 0.5
        t.pole = ik_vec3_add(l.base.pos,
                             ik_vec3_add_scaled(off, ik_vec3_make(0, 0, 1), (ik_real)(0.5 - s)));
        t.rot = ik_quat_from_axis_angle(ik_vec3_make(1, 1, 0), (ik_real)(4 * a));
        memcpy(prev, q, sizeof q);
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        if (i > 0)
            for (k = 0; k < 7; k++)
                if (fabs((double)q[k] - (double)prev[k]) > worst)
                    worst = fabs((double)q[k] - (double)prev[k]);
    }
    printf("  limb: largest joint step along the path %.3g rad (path step %.3g)\n", worst,
           6.283185307179586 / steps);
    // A flip (the elbow or the upper arm's twist jumping to the other side) is a step of order pi.
    // Where the pole crosses the line the elbow swings over to its new side over a few dozen
    // steps (the blend in ik_limb_solve), the largest of them ~0.08 rad here.
    CHECK(worst < 0.2);
}

// A tiny move of the target or the pole (1e-9) from any state, with the pole anywhere, also on
// the line and inside the blend band, moves the joint values by a tiny amount: no flips.
static void test_limb_tiny_moves(void)
{
    test_rng r = { 24 };
    int i, k, flips = 0;
    double worst = 0;
    for (i = 0; i < 3000; i++) {
        ik_limb l = random_limb(&r);
        ik_real qtrue[7], q[7], q2[7];
        ik_xform goal, frames[3];
        ik_limb_target t;
        ik_vec3 line, pole;
        double where = test_rng_uniform(&r, 0, 1);
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, frames, &goal);
        line = ik_vec3_sub(goal.pos, l.base.pos);
        // the pole: on the line, inside the band, at its edge, or anywhere
        pole = ik_vec3_add_scaled(l.base.pos, line, (ik_real)test_rng_uniform(&r, -2, 3));
        if (where > 0.25)
            pole = ik_vec3_add_scaled(pole, ik_vec3_any_perpendicular(line),
                                      (ik_real)(test_rng_uniform(&r, 0, 0.02) *
                                                (double)(l.upper_length + l.lower_length)));
        t = target_of(goal, pole);
        memcpy(q, qtrue, sizeof q);
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        // solving again from the answer changes nothing (also inside the pole band)
        memcpy(q2, q, sizeof q);
        CHECK(ik_limb_solve(&l, &t, NULL, q2, NULL, NULL) == IK_OK);
        for (k = 0; k < 7; k++)
            CHECK_NEAR(q2[k], q[k], TOL(1e-11, 1e-3));
        memcpy(q2, q, sizeof q);
        t.pole = ik_vec3_add(
            t.pole, ik_vec3_scale(ik_vec3_normalize(test_rng_vec3(&r, -1, 1)), IK_R(1e-9)));
        t.pos = ik_vec3_add(t.pos,
                            ik_vec3_scale(ik_vec3_normalize(test_rng_vec3(&r, -1, 1)), IK_R(1e-9)));
        CHECK(ik_limb_solve(&l, &t, NULL, q2, NULL, NULL) == IK_OK);
        for (k = 0; k < 7; k++) {
            double d = fabs((double)q2[k] - (double)q[k]);
            if (d > worst)
                worst = d;
            flips += d > 1e-3;
        }
    }
#ifndef IK_USE_FLOAT // in float a move of 1e-9 is below the resolution of the inputs
    printf("  limb: largest joint change for a 1e-9 move of target and pole: %.3g\n", worst);
    CHECK(flips == 0);
#else
    (void)flips;
#endif
}

// A limb whose bones are perpendicular to its hinge, as a human arm's: straight or folded, its
// elbow is on the shoulder-wrist line, where its side is a convention. Equal or nearly equal
// bones (folded, the wrist at or near the shoulder) a third of the time each.
static ik_limb planar_limb(test_rng *r)
{
    ik_limb l = random_limb(r);
    ik_vec3 other = ik_vec3_normalize(test_rng_vec3(r, -1, 1));
    double u = test_rng_uniform(r, 0, 1), v = test_rng_uniform(r, 0, 1);
    ik_real ratio = (ik_real)test_rng_uniform(r, 0.98, 1.02);
    l.hinge_axis = ik_vec3_normalize(ik_vec3_cross(l.upper_dir, other));
    l.lower_dir = u < 0.4 ? l.upper_dir : (u < 0.6 ? ik_vec3_scale(l.upper_dir, -1) : other);
    if (v < 1.0 / 3)
        l.lower_length = l.upper_length;
    else if (v < 2.0 / 3)
        l.lower_length = l.upper_length * ratio;
    return l;
}

// The largest change between two answers: joint values (q path), or rotations and elbow angle
// (pose path).
static double limb_answer_change(const ik_real *qa, const ik_real *qb, const ik_limb_pose *pa,
                                 const ik_limb_pose *pb)
{
    double d = 0, e;
    int k;
    if (qa) {
        for (k = 0; k < 7; k++)
            d = fabs((double)qa[k] - (double)qb[k]) > d ? fabs((double)qa[k] - (double)qb[k]) : d;
        return d;
    }
    d = test_quat_angle(pa->shoulder, pb->shoulder);
    e = test_quat_angle(pa->wrist, pb->wrist);
    d = e > d ? e : d;
    e = fabs((double)pa->elbow - (double)pb->elbow);
    return e > d ? e : d;
}

// Solving again from an answer, with the same inputs, gives that answer (to rounding): random
// limbs and planar ones (elbow on the line straight or folded, bones of equal length), targets
// reachable, beyond the reach, nearer than the fold or at the shoulder, and within 1e-6 of either
// end; the pole or swivel_ref on the shoulder-wrist line, inside the pole band, or anywhere; with
// and without the swivel and the wrist rotation; q and pose paths. (Inside the band the answer
// depends on the current pose: before, the swivel turned the kept side again on every solve, and
// the side read back from a folded answer's elbow angle was rounding noise.)
static void test_limb_solve_again(void)
{
    test_rng r = { 27 };
    const int trials = 20000;
    const double tol = TOL(1e-12, 1e-4); // measured: 2.6e-14 in double, 2.4e-5 in float
    int i, k, bad = 0;
    double worst = 0;
    for (i = 0; i < trials; i++) {
        ik_limb l = i % 2 ? planar_limb(&r) : random_limb(&r);
        ik_limb_prepared g;
        ik_limb_opts o = ik_default_limb_opts();
        ik_limb_target t;
        ik_limb_pose pa, pb;
        ik_real q0[7], qa[7], qb[7], *qp = i % 4 < 2 ? qa : NULL;
        ik_vec3 dir = ik_vec3_normalize(test_rng_vec3(&r, -1, 1));
        ik_vec3 side = ik_vec3_any_perpendicular(dir);
        double unit, rmin, rmax, dist, off, kind = test_rng_uniform(&r, 0, 5),
                                            where = test_rng_uniform(&r, 0, 3);
        CHECK(ik_limb_prepare(&l, &g) == IK_OK);
        unit = (double)g.length_unit;
        rmin = sqrt((double)g.reach2_min) * unit;
        rmax = sqrt((double)g.reach2_max) * unit;
        o.pole_band = i % 3 == 0 ? IK_R(0.2) : IK_R(0.01);
        random_q(&r, q0);
        t = target_of(ik_xform_identity(), ik_vec3_zero());
        t.rot = test_rng_quat(&r);
        t.use_rotation = test_rng_uniform(&r, 0, 1) < 0.5;
        t.use_swivel = test_rng_uniform(&r, 0, 1) < 0.5;
        t.swivel = (ik_real)test_rng_uniform(&r, -3.2, 3.2);
        if (kind < 1) { // reachable: the wrist of a random pose
            ik_xform goal;
            random_q(&r, qa);
            limb_fk(&l, qa, NULL, &goal);
            dist = test_vec3_dist(goal.pos, l.base.pos);
            if (dist > 0)
                dir = ik_vec3_normalize(ik_vec3_sub(goal.pos, l.base.pos));
            side = ik_vec3_any_perpendicular(dir);
        } else if (kind < 2) { // beyond the reach: straight
            dist = rmax * test_rng_uniform(&r, 1, 1.5);
        } else if (kind < 3) { // nearer than the fold: folded; an eighth at the shoulder
            dist = kind < 2.125 ? 0 : rmin * test_rng_uniform(&r, 0, 1);
        } else { // within 1e-6 of an end, reachable
            double rel = pow(10, test_rng_uniform(&r, -15, -6));
            dist = kind < 4 ? rmin * (1 + rel) + rel * unit : rmax * (1 - rel);
        }
        t.pos = ik_vec3_add_scaled(l.base.pos, dir, (ik_real)dist);
        // pole and swivel_ref: on the line, inside the band (or just beyond it), anywhere
        off = where < 1 ? 0 : test_rng_uniform(&r, 0, 1.2 * (double)o.pole_band);
        t.pole = ik_vec3_add_scaled(l.base.pos, dir, (ik_real)test_rng_uniform(&r, -2, 3));
        t.pole = ik_vec3_add_scaled(t.pole, side, (ik_real)(off * unit));
        l.swivel_ref = ik_vec3_add_scaled(
            ik_vec3_scale(dir, test_rng_uniform(&r, 0, 1) < 0.5 ? -1 : 1), side, (ik_real)off);
        if (where >= 2) {
            t.pole = ik_vec3_add(l.base.pos, test_rng_vec3(&r, -3, 3));
            l.swivel_ref = test_rng_vec3(&r, -1, 1);
        }
        // solve from a random pose, then again from the answer
        memcpy(qa, q0, sizeof q0);
        pa.shoulder = ik_quat_from_expmap(ik_vec3_make(q0[0], q0[1], q0[2]));
        pa.elbow = q0[3];
        pa.wrist = ik_quat_from_expmap(ik_vec3_make(q0[4], q0[5], q0[6]));
        CHECK(ik_limb_solve(&l, &t, &o, qp, &pa, NULL) == IK_OK);
        memcpy(qb, qa, sizeof qa);
        pb = pa;
        CHECK(ik_limb_solve(&l, &t, &o, qp ? qb : NULL, &pb, NULL) == IK_OK);
        {
            double d = limb_answer_change(qp, qb, &pa, &pb);
            worst = d > worst ? d : worst;
            bad += !(d <= tol);
        }
        for (k = 0; k < 7 && qp; k++)
            bad += !((double)qb[k] - (double)qb[k] == 0);
    }
    printf("  limb: largest change solving again from the answer %.3g (%d cases)\n", worst, trials);
    CHECK(bad == 0);
}

// Leaving an end of the reach: a planar limb (its elbow on the line there) straight or folded
// toward a target out of reach, the pole inside the band, then the target moved 1e-9 of the
// limb's length to just within reach. The elbow leaves the line on the side the straight or
// folded answer gave it: the joints move by little (before, folded with the lower bone the
// longer, the side was the wrong one and the limb turned by pi about the line).
static void test_limb_leaving_the_ends(void)
{
    test_rng r = { 29 };
    int i, k, flips = 0, cases = 0;
    double worst = 0;
    for (i = 0; i < 5000; i++) {
        ik_limb l = planar_limb(&r);
        ik_limb_prepared g;
        ik_limb_target t = target_of(ik_xform_identity(), ik_vec3_zero());
        ik_real q[7], q2[7];
        ik_vec3 dir = ik_vec3_normalize(test_rng_vec3(&r, -1, 1));
        double unit, end, d = 0;
        bool folded = i % 2 == 0;
        CHECK(ik_limb_prepare(&l, &g) == IK_OK);
        unit = (double)g.length_unit;
        end = sqrt((double)(folded ? g.reach2_min : g.reach2_max)) * unit;
        if (end < 1e-3 * unit) // (equal bones fold onto the shoulder: no direction to keep)
            continue;
        t.use_rotation = false;
        t.pos = ik_vec3_add_scaled(l.base.pos, dir, (ik_real)(folded ? end / 2 : end * 1.5));
        t.pole = ik_vec3_add_scaled(
            ik_vec3_add_scaled(l.base.pos, dir, (ik_real)test_rng_uniform(&r, -2, 3)),
            ik_vec3_any_perpendicular(dir), (ik_real)(test_rng_uniform(&r, 0, 0.01) * unit));
        random_q(&r, q);
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        memcpy(q2, q, sizeof q);
        t.pos = ik_vec3_add_scaled(l.base.pos, dir,
                                   (ik_real)(folded ? end + 1e-9 * unit : end - 1e-9 * unit));
        CHECK(ik_limb_solve(&l, &t, NULL, q2, NULL, NULL) == IK_OK);
        for (k = 0; k < 7; k++)
            d = fabs((double)q2[k] - (double)q[k]) > d ? fabs((double)q2[k] - (double)q[k]) : d;
        worst = d > worst ? d : worst;
        flips += !(d < 0.5); // (a flip is a turn of order pi)
        cases++;
    }
#ifndef IK_USE_FLOAT // in float a move of 1e-9 is below the resolution of the inputs
    printf("  limb: largest joint change leaving an end of the reach by 1e-9: %.3g\n", worst);
#endif
    CHECK(flips == 0);
    CHECK(cases > 4000);
}

// The adversarial cases as they were found, frame after frame: an arm hanging straight down,
// swivel_ref along it or 0.3% off it, swivel 0.3 (the elbow turned on every frame); a folded limb
// of nearly equal bones, the pole inside the band (the answer moved by up to 4 rad in 30 frames).
// Every frame after the first gives the first frame's answer.
static void test_limb_same_inputs_every_frame(void)
{
    ik_limb l = human_arm();
    ik_limb_target t = target_of(ik_xform_identity(), ik_vec3_zero());
    ik_real q[7] = { 0, 0, 0, IK_R(0.5), 0, 0, 0 }, first[7];
    ik_xform frames[3], first_elbow;
    int frame, k, c;
    for (c = 0; c < 3; c++) {
        t.use_rotation = false;
        if (c < 2) { // hanging straight down, bent; swivel_ref along the arm or 0.3% off it
            t.pos = ik_vec3_add(l.base.pos, ik_vec3_make(0, 0, IK_R(-0.45)));
            t.use_swivel = true;
            t.swivel = IK_R(0.3);
            l.swivel_ref = ik_vec3_make(c == 0 ? 0 : IK_R(0.003), 0, -1);
        } else { // bones of 0.3 and 0.299 along (1, 0.3, 0.2), folded as far as it goes toward
                 // a target at 0.001; the pole 0.0017 off the line, inside the band (0.0059)
            l.upper_dir = l.lower_dir = ik_vec3_normalize(ik_vec3_make(1, IK_R(0.3), IK_R(0.2)));
            l.hinge_axis = ik_vec3_normalize(
                ik_vec3_cross(l.upper_dir, ik_vec3_make(IK_R(0.3), 1, IK_R(0.4))));
            l.lower_length = IK_R(0.299);
            t.pos = ik_vec3_add_scaled(l.base.pos, l.upper_dir, IK_R(0.001));
            t.use_swivel = false;
            t.pole = ik_vec3_add_scaled(ik_vec3_add_scaled(l.base.pos, l.upper_dir, IK_R(0.5)),
                                        l.hinge_axis, IK_R(0.0017));
            q[0] = IK_R(0.1), q[1] = IK_R(0.2), q[2] = IK_R(0.3), q[3] = 1;
        }
        CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        limb_fk(&l, q, frames, NULL);
        memcpy(first, q, sizeof q);
        first_elbow = frames[1];
        for (frame = 1; frame < 30; frame++)
            CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
        limb_fk(&l, q, frames, NULL);
        // the elbow frame (where the elbow is, and the hinge's turn about the line) and the joint
        // values, to rounding (measured: 1.1e-14 in double, 2.2e-6 in float)
        CHECK_NEAR(test_vec3_dist(frames[1].pos, first_elbow.pos), 0, TOL(1e-12, 1e-4));
        CHECK_NEAR(test_quat_angle(frames[1].rot, first_elbow.rot), 0, TOL(1e-12, 1e-4));
        for (k = 0; k < 7; k++)
            CHECK_NEAR(q[k], first[k], TOL(1e-12, 1e-4));
    }
}

static void test_limb_position_only(void)
{
    test_rng r = { 23 };
    int i;
    for (i = 0; i < 500; i++) {
        ik_limb l = random_limb(&r);
        ik_real qtrue[7], q[7];
        ik_xform goal, got;
        ik_limb_target t;
        ik_limb_pose pose;
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, NULL, &goal);
        t = target_of(goal, test_rng_vec3(&r, -3, 3));
        t.use_rotation = false;
        random_q(&r, q);
        {
            ik_real w4 = q[4], w5 = q[5], w6 = q[6];
            CHECK(ik_limb_solve(&l, &t, NULL, q, &pose, NULL) == IK_OK);
            CHECK(q[4] == w4 && q[5] == w5 && q[6] == w6);
        }
        limb_fk(&l, q, NULL, &got);
        CHECK_NEAR(test_vec3_dist(got.pos, goal.pos), 0, TOL(1e-12, 1e-4));
        CHECK(pose.elbow == q[3]);
        CHECK_NEAR(
            test_quat_angle(pose.shoulder, ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2]))), 0,
            TOL(1e-13, 1e-5));
    }
}

// Non-unit directions, axis and rotations give the answer of their normalized versions.
static void test_limb_non_unit_inputs(void)
{
    test_rng r = { 25 };
    int i, k;
    for (i = 0; i < 200; i++) {
        ik_limb l = random_limb(&r), scaled = l;
        ik_real qtrue[7], q1[7], q2[7];
        ik_xform goal;
        ik_limb_target t;
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, NULL, &goal);
        t = target_of(goal, test_rng_vec3(&r, -3, 3));
        scaled.upper_dir = ik_vec3_scale(l.upper_dir, IK_R(3.5));
        scaled.lower_dir = ik_vec3_scale(l.lower_dir, IK_R(0.2));
        scaled.hinge_axis = ik_vec3_scale(l.hinge_axis, IK_R(7));
        memset(q1, 0, sizeof q1);
        memset(q2, 0, sizeof q2);
        CHECK(ik_limb_solve(&l, &t, NULL, q1, NULL, NULL) == IK_OK);
        t.rot = ik_quat_make(t.rot.x * 2, t.rot.y * 2, t.rot.z * 2, t.rot.w * 2);
        CHECK(ik_limb_solve(&scaled, &t, NULL, q2, NULL, NULL) == IK_OK);
#ifndef IK_USE_FLOAT
        for (k = 0; k < 7; k++)
            CHECK_NEAR(q1[k], q2[k], 1e-12);
#else
        // In float the joint values of a limb near full extension (or any end of its reach)
        // move by up to ~1e-3 for a one-ulp change of an input (acos near +-1): compare the
        // poses, which are well conditioned, instead.
        (void)k;
        {
            ik_xform f1[3], f2[3], w1, w2;
            double s = (double)(l.upper_length + l.lower_length);
            limb_fk(&l, q1, f1, &w1);
            limb_fk(&l, q2, f2, &w2);
            CHECK_NEAR(test_vec3_dist(f1[1].pos, f2[1].pos) / s, 0, 1e-5);
            CHECK_NEAR(test_vec3_dist(w1.pos, w2.pos) / s, 0, 1e-5);
            CHECK_NEAR(test_quat_angle(w1.rot, w2.rot), 0, 1e-5);
        }
#endif
    }
}

// The checks accept any finite rotation of non-zero length, also one whose squared length
// overflows (they read the squared length first, and only where that is not finite each
// component), and any vector whose components are within IK_MAX_MAGNITUDE (they read its length
// first): such rotations give the normalized rotation's answer, a NaN among huge components is
// still an error, and a target of components at the bound is taken.
static void test_limb_huge_rotations(void)
{
    test_rng r = { 26 };
    ik_real huge = TOL(1e200, 1e30), q1[7], q2[7], bad[7];
    int i, k;
    for (i = 0; i < 100; i++) {
        ik_limb l = random_limb(&r);
        ik_real qtrue[7];
        ik_xform goal;
        ik_limb_target t, th;
        ik_limb_pose p1, p2;
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, NULL, &goal);
        t = target_of(goal, test_rng_vec3(&r, -3, 3));
        th = t;
        th.rot = ik_quat_make(t.rot.x * huge, t.rot.y * huge, t.rot.z * huge, t.rot.w * huge);
        // (the squares overflow: asked without overflowing, for --trap-fe)
        CHECK(fmax(fmax(fabs((double)th.rot.x), fabs((double)th.rot.y)),
                   fmax(fabs((double)th.rot.z), fabs((double)th.rot.w))) >
              sqrt((double)IK__REAL_MAX));
        memset(q1, 0, sizeof q1);
        memset(q2, 0, sizeof q2);
        CHECK(ik_limb_solve(&l, &t, NULL, q1, NULL, NULL) == IK_OK);
        CHECK(ik_limb_solve(&l, &th, NULL, q2, NULL, NULL) == IK_OK);
        for (k = 0; k < 7; k++)
            CHECK_NEAR(q1[k], q2[k], TOL(1e-13, 1e-5));
        // pose only: the current pose's rotations huge
        p1.shoulder = p1.wrist = ik_quat_identity();
        p1.elbow = 1;
        p2 = p1;
        p2.shoulder = p2.wrist = ik_quat_make(0, 0, 0, huge);
        CHECK(ik_limb_solve(&l, &t, NULL, NULL, &p1, NULL) == IK_OK);
        CHECK(ik_limb_solve(&l, &t, NULL, NULL, &p2, NULL) == IK_OK);
        CHECK(test_quat_angle(p1.shoulder, p2.shoulder) <= TOL(1e-13, 1e-5) &&
              test_quat_angle(p1.wrist, p2.wrist) <= TOL(1e-13, 1e-5));
        // a NaN among huge components: an error, q untouched
        th.rot.y = (ik_real)nan("");
        memcpy(bad, q1, sizeof bad);
        CHECK(ik_limb_solve(&l, &th, NULL, bad, NULL, NULL) == IK_ERR_BAD_ARG);
        CHECK(memcmp(bad, q1, sizeof bad) == 0);
        p2.wrist.x = IK_INFINITY;
        CHECK(ik_limb_solve(&l, &t, NULL, NULL, &p2, NULL) == IK_ERR_BAD_ARG);
        // |pos| beyond the bound, each component within it: taken (unreachable)
        th = t;
        th.pos = ik_vec3_make(IK_MAX_MAGNITUDE, -IK_MAX_MAGNITUDE, IK_MAX_MAGNITUDE);
        CHECK(ik_limb_solve(&l, &th, NULL, q2, NULL, NULL) == IK_OK);
        th.pos.y = -IK_MAX_MAGNITUDE * IK_R(1.000001);
        CHECK(ik_limb_solve(&l, &th, NULL, q2, NULL, NULL) == IK_ERR_BAD_ARG);
        // one component just beyond the bound, the others 0 (|pos|^2 just beyond the bound's
        // square: a looser squared-length test would take it)
        th.pos = ik_vec3_make(IK_MAX_MAGNITUDE * (1 + IK_EPSILON), 0, 0);
        CHECK(ik_limb_solve(&l, &th, NULL, q2, NULL, NULL) == IK_ERR_BAD_ARG);
        th.pos = ik_vec3_make(0, IK_MAX_MAGNITUDE * IK_R(1.2), 0);
        CHECK(ik_limb_solve(&l, &th, NULL, q2, NULL, NULL) == IK_ERR_BAD_ARG);
    }
}

// FK from rotations (ik_limb_pose), as a caller driving its own skeleton would do it.
static ik_xform pose_fk(const ik_limb *l, const ik_limb_pose *p)
{
    ik_quat rs = ik_quat_mul(l->base.rot, p->shoulder);
    ik_quat re = ik_quat_mul(rs, ik_quat_from_axis_angle(l->hinge_axis, p->elbow));
    ik_vec3 d1 = ik_vec3_normalize(l->upper_dir), d2 = ik_vec3_normalize(l->lower_dir);
    ik_vec3 pos = ik_vec3_add(l->base.pos, ik_quat_rotate(rs, ik_vec3_scale(d1, l->upper_length)));
    pos = ik_vec3_add(pos, ik_quat_rotate(re, ik_vec3_scale(d2, l->lower_length)));
    return ik_xform_make(ik_quat_mul(re, p->wrist), pos);
}

// ik_limb_solve_prepared() gives ik_limb_solve()'s answer, bit for bit; with q NULL the pose is
// in/out and the answer is the same rotations (the q path's exponential maps turned back).
static void test_limb_prepared_and_pose_only(void)
{
    test_rng r = { 26 };
    int i, k, bad_same = 0, bad_pos = 0, bad_rot = 0, bad_q = 0;
    for (i = 0; i < 20000; i++) {
        ik_limb l = random_limb(&r);
        ik_limb_prepared p;
        ik_real qtrue[7], q1[7], q2[7];
        ik_xform goal, got;
        ik_limb_target t;
        ik_limb_pose pose1, pose2, pose3;
        ik_solve_info i1, i2;
        double scale = (double)(l.upper_length + l.lower_length);
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, NULL, &goal);
        t = target_of(goal, ik_vec3_add(l.base.pos, test_rng_vec3(&r, -3, 3)));
        t.use_rotation = i % 4 != 0;
        t.use_swivel = i % 3 == 0;
        t.swivel = (ik_real)test_rng_uniform(&r, -3, 3);
        random_q(&r, q1);
        memcpy(q2, q1, sizeof q1);
        CHECK(ik_limb_prepare(&l, &p) == IK_OK);
        CHECK(ik_limb_solve(&l, &t, NULL, q1, &pose1, &i1) == IK_OK);
        CHECK(ik_limb_solve_prepared(&p, &t, NULL, q2, &pose2, &i2) == IK_OK);
        bad_same += memcmp(q1, q2, sizeof q1) != 0 || memcmp(&pose1, &pose2, sizeof pose1) != 0 ||
                    i1.status != i2.status || i1.position_error != i2.position_error;
        // pose only, from the same current pose given as rotations
        random_q(&r, q2);
        pose3.shoulder = ik_quat_from_expmap(ik_vec3_make(q2[0], q2[1], q2[2]));
        pose3.elbow = q2[3];
        pose3.wrist = ik_quat_from_expmap(ik_vec3_make(q2[4], q2[5], q2[6]));
        CHECK(ik_limb_solve_prepared(&p, &t, NULL, NULL, &pose3, NULL) == IK_OK);
        CHECK(ik_limb_solve_prepared(&p, &t, NULL, q2, &pose2, NULL) == IK_OK);
        got = pose_fk(&l, &pose3);
        bad_pos += test_vec3_dist(got.pos, goal.pos) / scale > TOL(1e-12, 2e-4);
        if (t.use_rotation)
            bad_rot += test_quat_angle(got.rot, goal.rot) > TOL(1e-12, 2e-4);
        // the q path's answer as rotations: the same rotations, the same elbow angle
        bad_q += test_quat_angle(pose3.shoulder, pose2.shoulder) > TOL(1e-12, 2e-4) ||
                 test_quat_angle(pose3.wrist, pose2.wrist) > TOL(1e-12, 2e-4) ||
                 fabs((double)(pose3.elbow - pose2.elbow)) > TOL(1e-12, 2e-4);
        for (k = 0; k < 7; k++)
            bad_same += !((double)q2[k] - (double)q2[k] == 0);
    }
    CHECK(bad_same == 0);
    CHECK(bad_pos == 0);
    CHECK(bad_rot == 0);
    CHECK(bad_q == 0);
}

// Pose only (q NULL) along the continuity path of test_limb_continuity: the wrist is met, tiny
// steps of the target and pole give tiny steps of the rotations, also where the pole crosses the
// line and through full extension; position only leaves the wrist rotation as it was.
static void test_limb_pose_only_path(void)
{
    ik_limb l = human_arm();
    ik_limb_prepared p;
    ik_limb_pose pose, prev;
    ik_limb_target t;
    ik_quat wrist0 = ik_quat_from_axis_angle(ik_vec3_make(0, 1, 0), IK_R(0.4));
    int i, steps = 20000;
    double worst = 0;
    CHECK(ik_limb_prepare(&l, &p) == IK_OK);
    pose.shoulder = ik_quat_identity();
    pose.elbow = IK_R(0.3);
    pose.wrist = wrist0;
    t = target_of(ik_xform_identity(), ik_vec3_zero());
    t.use_rotation = false;
    for (i = 0; i <= steps; i++) {
        double s = (double)i / steps, a = 6.283185307179586 * s, d;
        ik_vec3 off = ik_vec3_make((ik_real)(0.3 + 0.27 * cos(a)), (ik_real)(0.2 * sin(2 * a)),
                                   (ik_real)(-0.1 * sin(a)));
        t.pos = ik_vec3_add(l.base.pos, off);
        t.pole = ik_vec3_add(l.base.pos,
                             ik_vec3_add_scaled(off, ik_vec3_make(0, 0, 1), (ik_real)(0.5 - s)));
        prev = pose;
        CHECK(ik_limb_solve_prepared(&p, &t, NULL, NULL, &pose, NULL) == IK_OK);
        d = (double)ik_vec3_length(off); // (the path leaves the reach range 0.05 .. 0.55)
        if (d > 0.051 && d < 0.549)
            CHECK_NEAR(test_vec3_dist(pose_fk(&l, &pose).pos, t.pos), 0, TOL(1e-14, 1e-6));
        if (i > 0) {
            d = test_quat_angle(pose.shoulder, prev.shoulder);
            worst = d > worst ? d : worst;
            d = fabs((double)(pose.elbow - prev.elbow));
            worst = d > worst ? d : worst;
        }
    }
    CHECK(worst < 0.2); // as in test_limb_continuity: a flip would be a step of order pi
    CHECK_NEAR(test_quat_angle(pose.wrist, wrist0), 0, TOL(1e-15, 1e-7));
}

static int quat_finite(ik_quat q)
{
    return ik_vec3_is_finite(ik_vec3_make(q.x, q.y, q.z)) && test_finite((double)q.w);
}

// Extreme sizes: bones from 1e-160 to 1e11 (and zero), targets at the shoulder, inside and far
// beyond reach, q or pose out, prepared or not: finite answers (a stored 1 / (2 L1 L2) or
// 1 / |w|^2 would overflow for the tiny ones), and the wrist on a reachable target.
static void test_limb_extreme_sizes(void)
{
    static const double len[] = { 0, 1e-160, 1e-20, 1, 1e11 };
    test_rng r = { 27 };
    int i, j, k, m, bad = 0, bad_pos = 0;
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++)
            for (m = 0; m < 40; m++) {
                ik_limb l = random_limb(&r);
                ik_real q[7], qtrue[7];
                ik_limb_pose pose;
                ik_limb_target t;
                ik_solve_info info;
                ik_xform goal;
                double scale;
#ifdef IK_USE_FLOAT
                if (len[i] == 1e-160 || len[j] == 1e-160)
                    continue; // below float's range
#endif
                l.upper_length = (ik_real)len[i];
                l.lower_length = (ik_real)len[j];
                scale = (double)(l.upper_length + l.lower_length);
                random_q(&r, qtrue);
                limb_fk(&l, qtrue, NULL, &goal);
                t = target_of(goal, ik_vec3_add(l.base.pos, test_rng_vec3(&r, -1, 1)));
                if (m % 4 == 1)
                    t.pos = l.base.pos;
                if (m % 4 == 2)
                    t.pos = ik_vec3_add(l.base.pos, test_rng_vec3(&r, -1e6, 1e6));
                t.use_rotation = m % 2 == 0;
                random_q(&r, q);
                pose.shoulder = ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2]));
                pose.elbow = q[3];
                pose.wrist = ik_quat_from_expmap(ik_vec3_make(q[4], q[5], q[6]));
                CHECK(ik_limb_solve(&l, &t, NULL, m % 3 == 0 ? NULL : q, &pose, &info) == IK_OK);
                for (k = 0; k < 7; k++)
                    bad += !((double)q[k] - (double)q[k] == 0);
                bad += !quat_finite(pose.shoulder) || !quat_finite(pose.wrist) ||
                       !((double)pose.elbow - (double)pose.elbow == 0) ||
                       !((double)info.position_error - (double)info.position_error == 0);
                if (m % 4 == 0 && scale >= 1e-20 && scale <= 2) // reachable, resolvable
                    bad_pos += test_vec3_dist(pose_fk(&l, &pose).pos, goal.pos) >
                               TOL(1e-12, 2e-4) * scale + 1e-13;
            }
    CHECK(bad == 0);
    CHECK(bad_pos == 0);
}

static void test_limb_bad_input(void)
{
    ik_limb l = human_arm(), bad;
    ik_limb_target t;
    ik_limb_opts o = ik_default_limb_opts();
    ik_real q[7] = { IK_R(0.1), 0, 0, IK_R(0.5), 0, 0, 0 }, q0[7], sw;
    ik_limb_pose pose, pose0;
    ik_joint j[3];
    ik_xform tip;
    int k;
    t = target_of(ik_xform_translation(ik_vec3_make(IK_R(0.5), IK_R(0.2), IK_R(1.3))),
                  ik_vec3_make(0, -1, 0));
    memcpy(q0, q, sizeof q);
    memset(&pose, 0x5a, sizeof pose);
    pose0 = pose;
    CHECK(ik_limb_solve(NULL, &t, NULL, q, &pose, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_solve(&l, NULL, NULL, q, &pose, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_solve(&l, &t, NULL, NULL, NULL, NULL) == IK_ERR_NULL_ARG); // q or out_pose
    for (k = 0; k < 12; k++) {
        ik_limb_target tb = t;
        bad = l;
        switch (k) {
        case 0: bad.upper_dir = ik_vec3_zero(); break;
        case 1: bad.lower_dir = ik_vec3_zero(); break;
        case 2: bad.hinge_axis = ik_vec3_make(1, 0, 0); break; // along the bones
        case 3: bad.upper_length = -1; break;
        case 4: bad.lower_length = (ik_real)NAN; break;
        case 5: bad.base.rot = ik_quat_make(0, 0, 0, 0); break;
        case 6: bad.swivel_ref.x = IK_INFINITY; break;
        case 7: tb.pos.y = (ik_real)NAN; break;
        case 8: tb.rot = ik_quat_make(0, 0, 0, 0); break;
        case 9: tb.pole.z = IK_INFINITY; break;
        case 10: tb.swivel = (ik_real)NAN; break;
        case 11: bad.base.pos.x = IK_R(2e12); break;
        }
        CHECK(ik_limb_solve(&bad, &tb, NULL, q, &pose, NULL) == IK_ERR_BAD_ARG);
    }
    q[2] = (ik_real)NAN;
    CHECK(ik_limb_solve(&l, &t, NULL, q, &pose, NULL) == IK_ERR_BAD_ARG);
    CHECK(ik_limb_swivel(&l, q, &sw) == IK_ERR_BAD_ARG);
    q[2] = q0[2];
    o._valid = 0;
    CHECK(ik_limb_solve(&l, &t, &o, q, &pose, NULL) == IK_ERR_BAD_OPTS);
    o = ik_default_limb_opts();
    o.pole_band = 0;
    CHECK(ik_limb_solve(&l, &t, &o, q, &pose, NULL) == IK_ERR_BAD_OPTS);
    o.pole_band = 1;
    CHECK(ik_limb_solve(&l, &t, &o, q, &pose, NULL) == IK_ERR_BAD_OPTS);
    CHECK(memcmp(q, q0, sizeof q) == 0);
    CHECK(memcmp(&pose, &pose0, sizeof pose) == 0);
    // prepared limbs; pose only with a bad current pose
    {
        ik_limb_prepared p, p0;
        ik_limb_pose cur;
        memset(&p, 0x5a, sizeof p);
        p0 = p;
        CHECK(ik_limb_prepare(NULL, &p) == IK_ERR_NULL_ARG);
        CHECK(ik_limb_prepare(&l, NULL) == IK_ERR_NULL_ARG);
        bad = l;
        bad.lower_dir = ik_vec3_zero();
        CHECK(ik_limb_prepare(&bad, &p) == IK_ERR_BAD_ARG);
        CHECK(memcmp(&p, &p0, sizeof p) == 0);
        CHECK(ik_limb_solve_prepared(&p, &t, NULL, q, &pose, NULL) == IK_ERR_BAD_ARG); // not filled
        CHECK(ik_limb_solve_prepared(NULL, &t, NULL, q, &pose, NULL) == IK_ERR_NULL_ARG);
        CHECK(ik_limb_prepare(&l, &p) == IK_OK);
        CHECK(ik_limb_solve_prepared(&p, NULL, NULL, q, &pose, NULL) == IK_ERR_NULL_ARG);
        CHECK(ik_limb_solve_prepared(&p, &t, NULL, NULL, NULL, NULL) == IK_ERR_NULL_ARG);
        for (k = 0; k < 4; k++) {
            cur.shoulder = ik_quat_identity();
            cur.elbow = IK_R(0.5);
            cur.wrist = ik_quat_identity();
            switch (k) {
            case 0: cur.shoulder = ik_quat_make(0, 0, 0, 0); break;
            case 1: cur.wrist.y = (ik_real)NAN; break;
            case 2: cur.elbow = IK_INFINITY; break;
            case 3: cur.elbow = IK_R(2e12); break;
            }
            pose0 = cur;
            CHECK(ik_limb_solve_prepared(&p, &t, NULL, NULL, &cur, NULL) == IK_ERR_BAD_ARG);
            CHECK(memcmp(&cur, &pose0, sizeof cur) == 0);
        }
        o._valid = 0;
        CHECK(ik_limb_solve_prepared(&p, &t, &o, q, &pose, NULL) == IK_ERR_BAD_OPTS);
        o = ik_default_limb_opts();
        CHECK(memcmp(q, q0, sizeof q) == 0);
    }
    CHECK(ik_limb_swivel(NULL, q, &sw) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_swivel(&l, NULL, &sw) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_swivel(&l, q, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_chain(&l, NULL, &tip) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_chain(&l, j, NULL) == IK_ERR_NULL_ARG);
    bad = l;
    bad.hinge_axis = ik_vec3_zero();
    CHECK(ik_limb_chain(&bad, j, &tip) == IK_ERR_BAD_ARG);
    // and the good call works, with an info
    {
        ik_solve_info info;
        CHECK(ik_limb_solve(&l, &t, NULL, q, &pose, &info) == IK_OK);
        CHECK(info.status == IK_STATUS_CONVERGED);
        CHECK_NEAR(info.position_error, 0, TOL(1e-14, 1e-6));
        CHECK_NEAR(info.rotation_error, 0, TOL(1e-14, 1e-6));
    }
}

// ---- limits (docs/limb.md, "Limits")

// A random ball limit: any axes, half-angles 0.3 .. pi, a twist range at least 0.4 wide.
static ik_ball_limit random_ball_limit(test_rng *r)
{
    ik_ball_limit b;
    ik_vec3 z = test_rng_vec3(r, -1, 1), x = test_rng_vec3(r, -1, 1);
    double sx = test_rng_uniform(r, 0.3, 3.14159), sy = test_rng_uniform(r, 0.3, 3.14159);
    double lo = test_rng_uniform(r, -3.14159, 2.7), hi = test_rng_uniform(r, lo + 0.4, 3.14159);
    ik_result made =
        ik_ball_limit_make(z, x, (ik_real)sx, (ik_real)sy, (ik_real)lo, (ik_real)hi, &b);
    CHECK(made == IK_OK);
    return b;
}

// Random limits for l (set in l->limits): an elbow range overlapping the bending branch.
static void random_limits(test_rng *r, ik_limb *l, ik_limb_limits *lim)
{
    ik_limb_prepared g;
    double t0, a, b;
    l->limits = NULL;
    CHECK(ik_limb_prepare(l, &g) == IK_OK);
    t0 = (double)g.t0;
    a = test_rng_uniform(r, t0 - 0.5, t0 + 2.6);
    b = test_rng_uniform(r, (a > t0 ? a : t0) + 0.3, t0 + 3.14159 + 0.5);
    lim->elbow_lo = (ik_real)a;
    lim->elbow_hi = (ik_real)b;
    lim->shoulder = random_ball_limit(r);
    lim->wrist = random_ball_limit(r);
    l->limits = lim;
}

// A random rotation within limit b (drawn until one is, else projected).
static ik_quat random_within(test_rng *r, const ik_ball_limit *b)
{
    int k;
    ik_quat q = test_rng_quat(r);
    for (k = 0; k < 100000 && !ik_ball_limit_contains(b, q); k++)
        q = test_rng_quat(r);
    return ik_ball_limit_project(b, q);
}

// A random state within the limits the solver can take: the elbow in the prepared range.
static void random_q_within(test_rng *r, const ik_limb *l, ik_real *q)
{
    ik_limb_prepared g;
    ik_vec3 s, w;
    CHECK(ik_limb_prepare(l, &g) == IK_OK);
    s = ik_quat_to_expmap(random_within(r, &l->limits->shoulder));
    w = ik_quat_to_expmap(random_within(r, &l->limits->wrist));
    q[0] = s.x, q[1] = s.y, q[2] = s.z;
    q[3] = (ik_real)test_rng_uniform(r, (double)g.elbow_lo, (double)g.elbow_hi);
    q[4] = w.x, q[5] = w.y, q[6] = w.z;
}

// Whether rotation r is within limit b (under -ffast-math, two inlined copies of the same test
// may round differently: within 1e-12 rad of the limit there).
static bool limb_rot_within(const ik_ball_limit *b, ik_quat r)
{
    return ik_ball_limit_contains(b, r) ||
           (TEST_FAST_MATH && test_quat_angle(r, ik_ball_limit_project(b, r)) <= 1e-12);
}

// Whether state q is within l's limits (the elbow within its range to rounding).
static bool limb_q_within(const ik_limb *l, const ik_real *q)
{
    const ik_limb_limits *lim = l->limits;
    double slack = 8 * (double)IK_EPSILON * (1 + fabs((double)q[3]));
    return limb_rot_within(&lim->shoulder, ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2]))) &&
           limb_rot_within(&lim->wrist, ik_quat_from_expmap(ik_vec3_make(q[4], q[5], q[6]))) &&
           (double)q[3] >= (double)lim->elbow_lo - slack &&
           (double)q[3] <= (double)lim->elbow_hi + slack;
}

#ifdef IK_USE_FLOAT
#define LIMITS_TOL 2e-4
#else
#define LIMITS_TOL 1e-12
#endif

// The counts of test_limb_limits_random().
typedef struct limits_counts {
    int outside, bad_fk, bad_status, limited, moved;
} limits_counts;

// Solves for the wrist pose of state qtrue, with a random pole and start: whether it is reached
// (CONVERGED, the wrist on it to LIMITS_TOL); answers outside the limits counted.
static bool limits_reach_from(test_rng *r, const ik_limb *l, const ik_real *qtrue, int *outside)
{
    double scale = (double)(l->upper_length + l->lower_length), pe, re;
    ik_real q[7];
    ik_xform goal, got;
    ik_limb_target t;
    ik_solve_info info;
    limb_fk(l, qtrue, NULL, &goal);
    t = target_of(goal, ik_vec3_add(l->base.pos, test_rng_vec3(r, -3, 3)));
    random_q(r, q);
    CHECK(ik_limb_solve(l, &t, NULL, q, NULL, &info) == IK_OK);
    limb_fk(l, q, NULL, &got);
    *outside += !limb_q_within(l, q);
    pe = (double)ik_vec3_length(ik_vec3_sub(got.pos, goal.pos)) / scale;
    re = test_quat_angle(got.rot, goal.rot);
    return pe <= LIMITS_TOL && re <= LIMITS_TOL && info.status == IK_STATUS_CONVERGED;
}

// A random target near the wrist pose of a random state (position only when !rot), solved with
// and without the limits: the answer within them, FK of q the report, the status as the
// unlimited solve and the miss say (missed: beyond the tolerance; met: within rounding;
// between, in float, either status).
static void limits_random_target(test_rng *r, const ik_limb *l, bool rot, limits_counts *c)
{
    double scale = (double)(l->upper_length + l->lower_length), pe, re, tol = LIMITS_TOL;
    ik_limb free_limb = *l;
    ik_real qtrue[7], q[7], qfree[7];
    ik_xform goal, got;
    ik_limb_target t;
    ik_solve_info info, free_info;
    free_limb.limits = NULL;
    random_q(r, qtrue);
    limb_fk(l, qtrue, NULL, &goal);
    t = target_of(goal, ik_vec3_add(l->base.pos, test_rng_vec3(r, -3, 3)));
    t.use_rotation = rot;
    t.pos = ik_vec3_add(t.pos, test_rng_vec3(r, -0.3 * scale, 0.3 * scale));
    random_q(r, q);
    memcpy(qfree, q, sizeof q);
    CHECK(ik_limb_solve(l, &t, NULL, q, NULL, &info) == IK_OK);
    CHECK(ik_limb_solve(&free_limb, &t, NULL, qfree, NULL, &free_info) == IK_OK);
    limb_fk(l, q, NULL, &got);
    c->outside += !limb_q_within(l, q);
    pe = (double)ik_vec3_length(ik_vec3_sub(got.pos, t.pos));
    re = t.use_rotation ? test_quat_angle(got.rot, t.rot) : 0;
    c->bad_fk += !(fabs(pe - (double)info.position_error) <= tol * scale &&
                   fabs(re - (double)info.rotation_error) <= tol * 10);
    if (free_info.status == IK_STATUS_UNREACHABLE)
        c->bad_status += info.status != IK_STATUS_UNREACHABLE;
    else if (pe > tol * scale || re > tol)
        c->bad_status += info.status != IK_STATUS_LIMITED;
    else if (pe <= 64 * (double)IK_EPSILON * scale && re <= 64 * (double)IK_EPSILON)
        c->bad_status += info.status != IK_STATUS_CONVERGED;
    else
        c->bad_status += info.status == IK_STATUS_UNREACHABLE;
    c->limited += info.status == IK_STATUS_LIMITED;
    c->moved +=
        info.status == IK_STATUS_CONVERGED &&
        fabs((double)(q[3] - qfree[3])) +
                test_quat_angle(ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2])),
                                ik_quat_from_expmap(ik_vec3_make(qfree[0], qfree[1], qfree[2]))) >
            1e-6;
}

// Random limbs with random limits: targets made by FK of random states within the limits, with
// random poles (the requested swivel mostly outside the limits), are reached in at least 99%
// (from states with the shoulder or the wrist on its boundary: counted apart); random targets
// from random states: every answer within the limits, FK of q the reported error,
// IK_STATUS_LIMITED exactly where the unlimited solve meets the target and this one misses it,
// UNREACHABLE exactly where the unlimited one is.
static void test_limb_limits_random(void)
{
    test_rng r = { 2601 };
#ifdef IK_USE_FLOAT
    const int trials = 2000;
#else
    const int trials = 10000;
#endif
    int i, reached = 0, on_boundary = 0;
    limits_counts c = { 0, 0, 0, 0, 0 };
    for (i = 0; i < trials; i++) {
        ik_limb l = random_limb(&r);
        ik_limb_limits lim;
        ik_real qtrue[7];
        random_limits(&r, &l, &lim);
        // a target made from a state within the limits, any pole
        random_q_within(&r, &l, qtrue);
        reached += limits_reach_from(&r, &l, qtrue, &c.outside);
        // the same from a state with the shoulder or the wrist on its limit's boundary
        {
            ik_quat sb = i % 2 ? ik_ball_limit_project(&lim.shoulder, test_rng_quat(&r))
                               : random_within(&r, &lim.shoulder);
            ik_quat wb = i % 2 ? random_within(&r, &lim.wrist)
                               : ik_ball_limit_project(&lim.wrist, test_rng_quat(&r));
            ik_vec3 sv = ik_quat_to_expmap(sb), wv = ik_quat_to_expmap(wb);
            qtrue[0] = sv.x, qtrue[1] = sv.y, qtrue[2] = sv.z;
            qtrue[4] = wv.x, qtrue[5] = wv.y, qtrue[6] = wv.z;
            on_boundary += limits_reach_from(&r, &l, qtrue, &c.outside);
        }
        // a random target from any state, position only half the time
        limits_random_target(&r, &l, i % 2 == 0, &c);
    }
    printf("  limb limits: %d/%d targets from states within the limits reached (%.2f%%), %d/%d "
           "from states with the shoulder or the wrist on its boundary; random targets: %d "
           "limited, %d met by moving the swivel; outside the limits %d, FK != report %d, wrong "
           "status %d\n",
           reached, trials, 100.0 * reached / trials, on_boundary, trials, c.limited, c.moved,
           c.outside, c.bad_fk, c.bad_status);
    CHECK(reached >= trials * 99 / 100);
    CHECK(c.outside == 0);
    CHECK(c.bad_fk == 0);
    CHECK(c.bad_status == 0);
}

// The largest joint move between two answers (rotations by angle, the elbow by its change).
static double limb_pose_step(const ik_limb_pose *a, const ik_limb_pose *b)
{
    double s = test_quat_angle(a->shoulder, b->shoulder), w = test_quat_angle(a->wrist, b->wrist);
    double e = fabs((double)(a->elbow - b->elbow));
    return s > w ? (s > e ? s : e) : (w > e ? w : e);
}

// A smooth path's target at parameter u: the wrist circling about center through a figure of
// three sines, the hand turning, the pole sweeping.
static ik_limb_target limb_path_target(ik_vec3 center, double radius, double u)
{
    ik_limb_target t;
    t.pos = ik_vec3_add(center,
                        ik_vec3_make((ik_real)(radius * sin(u)), (ik_real)(radius * sin(2 * u + 1)),
                                     (ik_real)(radius * sin(3 * u + 2))));
    t.rot = ik_quat_from_expmap(ik_vec3_make((ik_real)(1.2 * sin(u + 0.5)),
                                             (ik_real)(0.9 * sin(2 * u)), (ik_real)(0.7 * cos(u))));
    t.use_rotation = true;
    t.use_swivel = true;
    t.pole = ik_vec3_zero();
    t.swivel = (ik_real)(2.5 * sin(u));
    return t;
}

// The inputs' move between path parameters u0 and u1, per unit of the limb's length (the
// target's position over the length, its rotation and the swivel in radians).
static double limb_path_step(ik_vec3 center, double radius, double scale, double u0, double u1)
{
    ik_limb_target a = limb_path_target(center, radius, u0),
                   b = limb_path_target(center, radius, u1);
    return (double)ik_vec3_length(ik_vec3_sub(a.pos, b.pos)) / scale +
           test_quat_angle(a.rot, b.rot) + fabs((double)(a.swivel - b.swivel));
}

// Whether the answers' move between u0 and u1 stays as large as `step` however close the two
// parameters come (40 halvings, following the larger half): a discontinuity of the limits'
// feasible set, not a steep slope.
static bool limb_path_split(const ik_limb *l, ik_vec3 center, double radius, double u0, double u1,
                            ik_limb_pose p0, double step)
{
    int k;
    for (k = 0; k < 40; k++) {
        double um = (u0 + u1) / 2;
        ik_limb_target t = limb_path_target(center, radius, um);
        ik_limb_pose pm = p0, p1 = p0;
        ik_limb_target t1 = limb_path_target(center, radius, u1);
        ik_limb_solve(l, &t, NULL, NULL, &pm, NULL);
        ik_limb_solve(l, &t1, NULL, NULL, &p1, NULL);
        if (limb_pose_step(&p0, &pm) >= limb_pose_step(&pm, &p1))
            u1 = um;
        else
            u0 = um, p0 = pm;
    }
    {
        ik_limb_target t1 = limb_path_target(center, radius, u1);
        ik_limb_pose p1 = p0;
        ik_limb_solve(l, &t1, NULL, NULL, &p1, NULL);
        return limb_pose_step(&p0, &p1) > step / 4;
    }
}

// Follows the path with limits active: the largest ratio of joint move to input move between
// frames away from splits of the feasible set, the number of splits and of frames limited.
static void limb_follow_path(const ik_limb *l, ik_vec3 center, double radius, int frames,
                             double *worst_ratio, int *splits, int *limited, int *bad)
{
    double scale = (double)(l->upper_length + l->lower_length), du = 6.283185307179586 / frames;
    ik_limb_pose prev, pose;
    ik_limb_target t = limb_path_target(center, radius, 0);
    ik_solve_info info;
    int i;
    prev.shoulder = prev.wrist = ik_quat_identity();
    prev.elbow = IK_R(0.5);
    CHECK(ik_limb_solve(l, &t, NULL, NULL, &prev, &info) == IK_OK);
    *worst_ratio = 0, *splits = 0, *limited = 0, *bad = 0;
    for (i = 1; i <= frames; i++) {
        double in_step = limb_path_step(center, radius, scale, (i - 1) * du, i * du), step, ratio;
        t = limb_path_target(center, radius, i * du);
        pose = prev;
        CHECK(ik_limb_solve(l, &t, NULL, NULL, &pose, &info) == IK_OK);
        *bad += l->limits && (!ik_ball_limit_contains(&l->limits->shoulder, pose.shoulder) ||
                              !ik_ball_limit_contains(&l->limits->wrist, pose.wrist) ||
                              pose.elbow < l->limits->elbow_lo || pose.elbow > l->limits->elbow_hi);
        *limited += info.status == IK_STATUS_LIMITED;
        step = limb_pose_step(&prev, &pose);
        ratio = step / in_step;
        if (ratio > 20 && limb_path_split(l, center, radius, (i - 1) * du, i * du, prev, step))
            ++*splits;
        else if (ratio > *worst_ratio)
            *worst_ratio = ratio;
        prev = pose;
    }
}

// A limb and the humanoid left arm following a smooth closed path (8000 frames) with limits
// active: every answer within the limits; between frames no joint moves by more than 4 times the
// largest ratio of joint move to input move the same limb shows without limits, except at splits
// of the feasible set (a move that stays however small the step: printed and counted).
static void test_limb_limits_path(void)
{
    ik_limb arm = human_arm(), human, free_limb;
    ik_limb_limits lim, human_lim;
    int which, frames = 8000;
    lim.elbow_lo = IK_R(0.2);
    lim.elbow_hi = IK_R(2.4);
    CHECK(ik_ball_limit_make(ik_vec3_make(1, 0, 0), ik_vec3_make(0, 1, 0), IK_R(1.2), IK_R(0.8),
                             IK_R(-0.6), IK_R(0.9), &lim.shoulder) == IK_OK);
    CHECK(ik_ball_limit_make(ik_vec3_make(1, 0, 0), ik_vec3_make(0, 0, 1), IK_R(0.9), IK_R(0.5),
                             IK_R(-1.2), IK_R(1.0), &lim.wrist) == IK_OK);
    arm.limits = &lim;
    CHECK(ik_limb_humanoid(IK_HUMANOID_LEFT_ARM, IK_R(0.3), IK_R(0.25), &human, &human_lim) ==
          IK_OK);
    for (which = 0; which < 2; which++) {
        const ik_limb *l = which ? &human : &arm;
        ik_vec3 center = ik_vec3_add(l->base.pos, ik_vec3_make(IK_R(0.3), IK_R(-0.1), IK_R(0.2)));
        double worst, free_worst;
        int splits, limited, bad, free_splits, free_limited, free_bad;
        free_limb = *l;
        free_limb.limits = NULL;
        limb_follow_path(l, center, 0.15, frames, &worst, &splits, &limited, &bad);
        limb_follow_path(&free_limb, center, 0.15, frames, &free_worst, &free_splits, &free_limited,
                         &free_bad);
        printf("  limb limits along a path (%s): %d of %d frames limited, %d outside; largest "
               "joint move / input move %.3g away from %d splits (without limits %.3g, %d "
               "splits)\n",
               which ? "humanoid arm" : "arm", limited, frames, bad, worst, splits, free_worst,
               free_splits);
        CHECK(bad == 0);
        CHECK(worst <= 4 * free_worst);
        CHECK(splits <= frames / 200);
    }
}

// ik_limb_chain() gives the chain the limb's limits: CCD from states within them, toward random
// targets, returns states within them (the elbow in [elbow_lo, elbow_hi], the balls in their
// cones and twists).
static void test_limb_limits_chain(void)
{
    test_rng r = { 2602 };
    int i, outside = 0, carried = 0;
    for (i = 0; i < 500; i++) {
        ik_limb l = random_limb(&r);
        ik_limb_limits lim;
        ik_joint j[3];
        ik_xform tip, goal;
        ik_chain c;
        ik_target t;
        ik_real q[7], qgoal[7];
        unsigned char scratch[4096];
        random_limits(&r, &l, &lim);
        CHECK(ik_limb_chain(&l, j, &tip) == IK_OK);
        carried += j[0].limit == &lim.shoulder && j[2].limit == &lim.wrist &&
                   j[1].lo == lim.elbow_lo && j[1].hi == lim.elbow_hi;
        c = ik_chain_make(j, 3, tip);
        random_q(&r, qgoal);
        limb_fk(&l, qgoal, NULL, &goal);
        t = ik_target_pose(goal);
        random_q_within(&r, &l, q);
        CHECK(ik_ccd_scratch_size(&c) <= sizeof scratch);
        CHECK(ik_ccd_solve(&c, &t, NULL, q, scratch, sizeof scratch, NULL) == IK_OK);
        outside += !limb_q_within(&l, q);
    }
    printf("  limb limits in the chain: %d/500 chains carry them; CCD answers outside them: %d\n",
           carried, outside);
    CHECK(carried == 500);
    CHECK(outside == 0);
}

// Limits that allow everything give the unlimited answers (to rounding: the limited path
// normalizes its rotations; the elbow angle up to whole turns, which the unlimited solve takes
// nearest the current angle); limits NULL are the unlimited code itself (the same branch).
static void test_limb_limits_permissive(void)
{
    test_rng r = { 2603 };
    ik_limb_limits all;
    int i;
    double worst = 0;
    all.elbow_lo = -10;
    all.elbow_hi = 10;
    CHECK(ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_PI, IK_PI, -IK_PI,
                             IK_PI, &all.shoulder) == IK_OK);
    all.wrist = all.shoulder;
    for (i = 0; i < 5000; i++) {
        ik_limb l = random_limb(&r), free_limb;
        ik_real qtrue[7], q[7], qfree[7];
        ik_xform goal;
        ik_limb_target t;
        ik_solve_info info, free_info;
        ik_limb_pose p, pfree;
        double d;
        random_q(&r, qtrue);
        limb_fk(&l, qtrue, NULL, &goal);
        t = target_of(goal, ik_vec3_add(l.base.pos, test_rng_vec3(&r, -3, 3)));
        t.use_rotation = i % 2 == 0;
        t.pos = ik_vec3_add(t.pos, test_rng_vec3(&r, -0.5, 0.5));
        free_limb = l;
        l.limits = &all;
        random_q(&r, q);
        memcpy(qfree, q, sizeof q);
        CHECK(ik_limb_solve(&l, &t, NULL, q, &p, &info) == IK_OK);
        CHECK(ik_limb_solve(&free_limb, &t, NULL, qfree, &pfree, &free_info) == IK_OK);
        CHECK(info.status == free_info.status);
        p.elbow = pfree.elbow +
                  (ik_real)remainder((double)(p.elbow - pfree.elbow), 2 * 3.141592653589793);
        d = limb_pose_step(&p, &pfree);
        worst = d > worst ? d : worst;
    }
    printf("  limb limits allowing everything: largest difference from no limits %.3g\n", worst);
    CHECK(worst <= TOL(1e-12, 2e-5));
}

// Bad limits are refused (IK_ERR_BAD_ARG) by every entry point, outputs untouched.
static void test_limb_limits_bad(void)
{
    ik_limb l = human_arm();
    ik_limb_limits lim, good;
    ik_limb_target t =
        target_of(ik_xform_translation(ik_vec3_make(IK_R(0.5), IK_R(0.1), IK_R(1.5))),
                  ik_vec3_make(0, -1, 0));
    ik_limb_prepared g;
    ik_joint j[3];
    ik_xform tip;
    ik_real q[7] = { IK_R(0.1), 0, 0, IK_R(0.5), 0, 0, 0 }, q0[7];
    ik_limb_pose pose, pose0;
    int k;
    good.elbow_lo = 0;
    good.elbow_hi = 2;
    CHECK(ik_ball_limit_make(ik_vec3_make(1, 0, 0), ik_vec3_make(0, 1, 0), 1, 1, -1, 1,
                             &good.shoulder) == IK_OK);
    good.wrist = good.shoulder;
    memcpy(q0, q, sizeof q);
    pose.shoulder = pose.wrist = ik_quat_identity();
    pose.elbow = IK_R(0.5);
    pose0 = pose;
    for (k = 0; k < 6; k++) {
        lim = good;
        if (k == 0)
            lim.elbow_lo = (ik_real)NAN;
        if (k == 1)
            lim.elbow_hi = IK_INFINITY;
        if (k == 2)
            lim.elbow_lo = 3, lim.elbow_hi = 2; // lo > hi
        if (k == 3)
            lim.elbow_lo = -2, lim.elbow_hi = IK_R(-0.5); // outside the bending branch [0, pi]
        if (k == 4)
            lim.shoulder.cone[0] = (ik_real)NAN;
        if (k == 5)
            lim.wrist.twist[0] = 2, lim.wrist.twist[1] = 1;
        l.limits = &lim;
        CHECK(ik_limb_solve(&l, &t, NULL, q, &pose, NULL) == IK_ERR_BAD_ARG);
        CHECK(ik_limb_solve(&l, &t, NULL, NULL, &pose, NULL) == IK_ERR_BAD_ARG);
        CHECK(ik_limb_prepare(&l, &g) == IK_ERR_BAD_ARG);
        CHECK(ik_limb_chain(&l, j, &tip) == IK_ERR_BAD_ARG);
        CHECK(memcmp(q, q0, sizeof q) == 0);
        CHECK(memcmp(&pose, &pose0, sizeof pose) == 0);
    }
    l.limits = &good;
    CHECK(ik_limb_solve(&l, &t, NULL, q, &pose, NULL) == IK_OK);
    CHECK(strcmp(ik_status_string(IK_STATUS_LIMITED), "limited") == 0);
    // a subnormal half-angle is a cone flat that way: answers within it, never NaN
    lim = good;
    CHECK(ik_ball_limit_make(ik_vec3_make(1, 0, 0), ik_vec3_make(0, 1, 0), IK__REAL_MIN / 4, 1, -1,
                             1, &lim.wrist) == IK_OK);
    l.limits = &lim;
    t.use_rotation = true;
    t.rot = ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), 1);
    CHECK(ik_limb_solve(&l, &t, NULL, q, &pose, NULL) == IK_OK);
    CHECK(ik_ball_limit_contains(&lim.wrist, pose.wrist));
    for (k = 0; k < 7; k++)
        CHECK(isfinite((double)q[k]));
}

// The humanoid builder refuses an unknown limb, negative or non-finite lengths and NULL outputs,
// its outputs untouched.
static void test_limb_humanoid_bad(void)
{
    ik_limb out_limb, limb0;
    ik_limb_limits out_limits, lim;
    memset(&out_limb, 0x5a, sizeof out_limb);
    memset(&out_limits, 0x5a, sizeof out_limits);
    lim = out_limits;
    limb0 = out_limb;
    CHECK(ik_limb_humanoid((ik_humanoid_limb)7, 1, 1, &out_limb, &out_limits) == IK_ERR_BAD_ARG);
    CHECK(ik_limb_humanoid(IK_HUMANOID_LEFT_ARM, -1, 1, &out_limb, &out_limits) == IK_ERR_BAD_ARG);
    CHECK(ik_limb_humanoid(IK_HUMANOID_LEFT_LEG, 1, (ik_real)NAN, &out_limb, &out_limits) ==
          IK_ERR_BAD_ARG);
    CHECK(ik_limb_humanoid(IK_HUMANOID_LEFT_LEG, 1, 1, NULL, &out_limits) == IK_ERR_NULL_ARG);
    CHECK(ik_limb_humanoid(IK_HUMANOID_LEFT_LEG, 1, 1, &out_limb, NULL) == IK_ERR_NULL_ARG);
    CHECK(memcmp(&out_limits, &lim, sizeof lim) == 0);
    CHECK(memcmp(&out_limb, &limb0, sizeof limb0) == 0);
}

// The humanoid limbs: the rest pose within the limits, the elbow flexing the forearm forward and
// the knee the shank backward, right limbs the mirror images of left ones (a rotation mirrored in
// x = 0 is allowed on the right exactly when it is on the left, and mirrored states reach
// mirrored wrist poses).
static void test_limb_humanoid(void)
{
    test_rng r = { 2604 };
    int side, i, mismatch = 0, fk_bad = 0;
    for (side = 0; side < 2; side++) {
        ik_humanoid_limb left = side ? IK_HUMANOID_LEFT_LEG : IK_HUMANOID_LEFT_ARM;
        ik_humanoid_limb right = side ? IK_HUMANOID_RIGHT_LEG : IK_HUMANOID_RIGHT_ARM;
        ik_limb ll, rl;
        ik_limb_limits llim, rlim;
        ik_real q[7] = { 0, 0, 0, 0, 0, 0, 0 };
        ik_xform frames[3], wrist;
        ik_vec3 fore;
        CHECK(ik_limb_humanoid(left, IK_R(0.3), IK_R(0.25), &ll, &llim) == IK_OK);
        CHECK(ik_limb_humanoid(right, IK_R(0.3), IK_R(0.25), &rl, &rlim) == IK_OK);
        CHECK(ll.limits == &llim && rl.limits == &rlim);
        CHECK(limb_q_within(&ll, q) && limb_q_within(&rl, q));
        // flexed by 90 degrees: the forearm forward (+z), the shank backward (-z)
        q[3] = IK_PI / 2;
        limb_fk(&ll, q, frames, &wrist);
        fore = ik_vec3_sub(wrist.pos, frames[1].pos);
        CHECK_NEAR(fore.z, side ? -0.25 : 0.25, 1e-6);
        limb_fk(&rl, q, frames, &wrist);
        fore = ik_vec3_sub(wrist.pos, frames[1].pos);
        CHECK_NEAR(fore.z, side ? -0.25 : 0.25, 1e-6);
        CHECK(side || llim.elbow_hi == rlim.elbow_hi);
        for (i = 0; i < 20000; i++) {
            ik_quat a = test_rng_quat(&r), m = ik_quat_make(a.x, -a.y, -a.z, a.w);
            ik_real ql[7], qr[7];
            ik_xform wl, wr;
            int k;
            mismatch += ik_ball_limit_contains(&llim.shoulder, a) !=
                        ik_ball_limit_contains(&rlim.shoulder, m);
            mismatch +=
                ik_ball_limit_contains(&llim.wrist, a) != ik_ball_limit_contains(&rlim.wrist, m);
            random_q(&r, ql);
            for (k = 0; k < 7; k++)
                qr[k] = k == 3 || k == 0 || k == 4 ? ql[k] : -ql[k];
            limb_fk(&ll, ql, NULL, &wl);
            limb_fk(&rl, qr, NULL, &wr);
            fk_bad += !(fabs((double)(wl.pos.x + wr.pos.x)) < 1e-5 &&
                        fabs((double)(wl.pos.y - wr.pos.y)) < 1e-5 &&
                        fabs((double)(wl.pos.z - wr.pos.z)) < 1e-5 &&
                        test_quat_angle(ik_quat_make(wl.rot.x, -wl.rot.y, -wl.rot.z, wl.rot.w),
                                        wr.rot) < 1e-5);
        }
    }
    printf("  humanoid limbs: mirror mismatches %d of 80000 rotations, mirrored FK off %d\n",
           mismatch, fk_bad);
    CHECK(mismatch == 0);
    CHECK(fk_bad == 0);
}

// A twist range ending at pi, where the exponential map cannot hold every projected rotation to
// the last bit (pi - 1e-16 and pi + 1e-16 round to the same map): the answers' maps are still
// within (before, 1 in a few hundred came out a rounding error beyond the end).
static void test_limb_limits_twist_at_pi(void)
{
    test_rng r = { 2605 };
    ik_limb l = human_arm();
    ik_limb_limits lim;
    int i, end, outside = 0;
    lim.elbow_lo = 0;
    lim.elbow_hi = 3;
    for (end = 0; end < 2; end++) {
        CHECK(ik_ball_limit_make(ik_vec3_make(end ? -1 : 1, 0, 0), ik_vec3_make(0, 1, 0), 0, 0,
                                 end ? -IK_PI : 0, end ? 0 : IK_PI, &lim.shoulder) == IK_OK);
        CHECK(ik_ball_limit_make(ik_vec3_make(1, 0, 0), ik_vec3_make(0, 1, 0), IK_R(0.5), IK_R(0.5),
                                 0, IK_PI, &lim.wrist) == IK_OK);
        l.limits = &lim;
        for (i = 0; i < 4000; i++) {
            ik_real q[7];
            ik_limb_target t =
                target_of(ik_xform_make(test_rng_quat(&r),
                                        ik_vec3_add(l.base.pos, test_rng_vec3(&r, -0.6, 0.6))),
                          ik_vec3_add(l.base.pos, test_rng_vec3(&r, -1, 1)));
            random_q(&r, q);
            CHECK(ik_limb_solve(&l, &t, NULL, q, NULL, NULL) == IK_OK);
            outside += !limb_q_within(&l, q);
        }
    }
    printf("  limb limits, twist ranges ending at pi: %d of 8000 answers outside\n", outside);
    CHECK(outside == 0);
}

void test_limb(void);
void test_limb(void)
{
    RUN(test_limb_random_reach);
    RUN(test_limb_swivel_round_trip);
    RUN(test_limb_swivel_in_band);
    RUN(test_limb_reach_limits);
    RUN(test_limb_soft_reach);
    RUN(test_limb_far_pole);
    RUN(test_limb_degenerate);
    RUN(test_limb_continuity);
    RUN(test_limb_tiny_moves);
    RUN(test_limb_solve_again);
    RUN(test_limb_same_inputs_every_frame);
    RUN(test_limb_leaving_the_ends);
    RUN(test_limb_position_only);
    RUN(test_limb_non_unit_inputs);
    RUN(test_limb_huge_rotations);
    RUN(test_limb_prepared_and_pose_only);
    RUN(test_limb_pose_only_path);
    RUN(test_limb_extreme_sizes);
    RUN(test_limb_bad_input);
    RUN(test_limb_limits_random);
    RUN(test_limb_limits_path);
    RUN(test_limb_limits_chain);
    RUN(test_limb_limits_permissive);
    RUN(test_limb_limits_bad);
    RUN(test_limb_humanoid_bad);
    RUN(test_limb_humanoid);
    RUN(test_limb_limits_twist_at_pi);
}
