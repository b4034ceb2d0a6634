/* ik_web.c - ik.h compiled to WebAssembly for the page in web/ (make web): three scenes kept
   here, their targets set and solved from JavaScript, their frames read back from the module's
   memory as doubles.
     scene 0, the analytic limb: a right arm (ik_limb_solve_prepared), targets: wrist, pole;
     scene 1, the KUKA iiwa 14 of bench/arms.h following a flange pose (position dragged, the
       rotation kept), by DLS, SDLS (ik_jacobian_solve), CCD (ik_ccd_solve), ik_arm_solve or its
       closed form at the elbow's swivel (ik_closed_form_solve: the elbow kept where it is, else
       at the nearest swivel within the limits), or its position by FABRIK (ik_fabrik_solve);
     scene 2, the humanoid of bench/humanoid.h (ik_skeleton_solve): feet (poses, priority 0),
       hands (positions) and the head's look-at point (priority 1), pulled toward a standing
       posture (the rest pose);
     scene 3, the UR5e of bench/industrial.h: every solution of its flange pose
       (ik_closed_form_solve), the nearest the previous state kept as its state; the rotation
       turned by ikw_ur_rotate_target.
   Every call is checked: a bad scene or target index returns -1 and changes nothing.
   docs/web.md says how the page uses these. */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "../bench/arms.h"
#include "../bench/humanoid.h"
#include "../bench/industrial.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE // (a native build: gcc checks the file)
#endif

enum { SCENE_LIMB, SCENE_ARM, SCENE_HUMANOID, SCENE_UR, SCENE_COUNT };
enum {
    METHOD_DLS,
    METHOD_SDLS,
    METHOD_CCD,
    METHOD_ARM,
    METHOD_FABRIK,
    METHOD_CLOSED,
    METHOD_COUNT
};

#define MAX_FRAMES  (HUMANOID_JOINTS + HUMANOID_EFFECTORS)
#define MAX_TARGETS HUMANOID_EFFECTORS
#define REPORT_SIZE 8
#define UR_LISTED   1024 // solutions listed (whole-turn equivalents too: 736 at a generic pose)
#define UR_SHOWN    8    // one per closed-form answer
#define UR_SHOWN_SIZE                                                                              \
    (4 + 6 + 7 * 7) // branch, flags, outside, distance, q, the joints' and the flange's frames

// What a scene holds: its state, start state (each repeat of a solve starts there), targets
// (model frame, 3 doubles each) and what the last solve reported.
typedef struct web_scene {
    ik_real q[HUMANOID_DOF], start[HUMANOID_DOF], home[HUMANOID_DOF];
    int dof, joints, effectors, targets;
    double target[MAX_TARGETS][3], home_target[MAX_TARGETS][3];
    double frames[MAX_FRAMES][7];   // joints' frames, then effectors': x y z, quaternion x y z w
    double limits[HUMANOID_JOINTS]; // per joint: distance to the nearer limit / range, 0 .. 0.5
    int parents[HUMANOID_JOINTS];
    double report[REPORT_SIZE]; // status (or an ik_result < 0), iterations, position and
                                // rotation errors, dof, joints, effectors, targets
} web_scene;

static web_scene scenes[SCENE_COUNT];
static ik_limb limb;
static ik_limb_prepared limb_prepared;
static ik_joint limb_joints[3];
static ik_chain limb_chain;
static arm_def arm;
static ik_closed_form arm_form; // the iiwa's closed form (SRS)
static ik_quat arm_rot;         // the flange's rotation, kept while its position is dragged
static int arm_method = METHOD_DLS;
static arm_def ur;
static ik_closed_form ur_form;
static ik_quat ur_rot; // the flange's rotation: pointing down, turned by ikw_ur_rotate_target
static ik_closed_solution ur_listed[UR_LISTED];
static ik_closed_info ur_info;
// what the page draws: shown, total, branches, then per answer (the nearest first) UR_SHOWN_SIZE
static double ur_shown[3 + UR_SHOWN * UR_SHOWN_SIZE];
static humanoid human;
static ik_quat human_feet_rot[2]; // the soles' rotations, kept
static unsigned char scratch[1 << 17];

static ik_vec3 vec(const double *p)
{
    return ik_vec3_make((ik_real)p[0], (ik_real)p[1], (ik_real)p[2]);
}

static void put3(double *out, double x, double y, double z)
{
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static void put_point(double *out, ik_vec3 p)
{
    put3(out, (double)p.x, (double)p.y, (double)p.z);
}

static void put_frame(double *out, ik_xform f)
{
    put_point(out, f.pos);
    put3(out + 3, (double)f.rot.x, (double)f.rot.y, (double)f.rot.z);
    out[6] = (double)f.rot.w;
}

static void set_sizes(web_scene *s, int dof, int joints, int effectors, int targets)
{
    s->dof = dof;
    s->joints = joints;
    s->effectors = effectors;
    s->targets = targets;
}

// The limb: example 05's right arm (shoulder at (0.2, 0, 1.4), z up, T-pose along +x, the elbow
// bending toward +y), the wrist in front of the shoulder and the pole below it.
static ik_result build_limb(web_scene *s)
{
    ik_xform tip;
    ik_result r;
    int i;
    limb.base = ik_xform_translation(ik_vec3_make(IK_R(0.2), 0, IK_R(1.4)));
    limb.upper_dir = limb.lower_dir = ik_vec3_make(1, 0, 0);
    limb.hinge_axis = ik_vec3_make(0, 0, 1);
    limb.upper_length = IK_R(0.30);
    limb.lower_length = IK_R(0.25);
    limb.swivel_ref = ik_vec3_make(0, 0, -1);
    limb.limits = NULL;
    r = ik_limb_chain(&limb, limb_joints, &tip);
    if (r == IK_OK)
        r = ik_limb_prepare(&limb, &limb_prepared);
    limb_chain = ik_chain_make(limb_joints, 3, tip);
    set_sizes(s, 7, 3, 1, 2);
    for (i = 0; i < 3; i++)
        s->parents[i] = i - 1;
    put3(s->target[0], 0.55, 0.22, 1.25); // wrist
    put3(s->target[1], 0.45, 0.0, 0.8);   // pole
    return r;
}

// The arm: the iiwa bent at the elbow and the wrist, its flange pose at that state the target.
static ik_result build_arm(web_scene *s)
{
    static const double bent[7] = { 0, 0.35, 0, -1.7, 0, 1.09, 0 };
    ik_xform flange;
    ik_result r = arm_build(ARM_IIWA14, &arm);
    int i;
    set_sizes(s, 7, 7, 1, 1);
    for (i = 0; i < 7; i++) {
        s->home[i] = (ik_real)bent[i];
        s->parents[i] = i - 1;
    }
    if (r == IK_OK)
        r = ik_chain_fk(&arm.chain, s->home, NULL, &flange);
    if (r == IK_OK && ik_chain_closed_form(&arm.chain, &arm_form, NULL) != IK_CLOSED_FORM_SRS)
        r = IK_ERR_BAD_ARG;
    arm_rot = flange.rot;
    put_point(s->target[0], flange.pos);
    return r;
}

enum { UR_RANGES_HALF, UR_RANGES_FULL, UR_RANGES_ELBOW_UP, UR_RANGES_COUNT };

// The UR5e's joint ranges (and its closed form's): +-180 degrees, +-360 as shipped, or +-180
// with the elbow (joint 3) at 0 .. 180 degrees only.
static void set_ur_ranges(int ranges)
{
    int j;
    for (j = 0; j < 6; j++) {
        ur_form.hi[j] = ur.joints[j].hi = ranges == UR_RANGES_FULL ? 2 * IK_PI : IK_PI;
        ur_form.lo[j] = ur.joints[j].lo = -ur_form.hi[j];
    }
    if (ranges == UR_RANGES_ELBOW_UP)
        ur_form.lo[2] = ur.joints[2].lo = 0;
}

// The UR5e in its usual start (the elbow up, the flange pointing down), limits +-180 degrees
// (ikw_set_ur_ranges), its flange pose at that state the target.
static ik_result build_ur(web_scene *s)
{
    static const double start[6] = { 0, -1.8, 1.6, -1.37, -1.5708, 0 };
    ik_xform flange;
    ik_result r = industrial_build(INDUSTRIAL_UR5E, &ur);
    int i;
    set_sizes(s, 6, 6, 1, 1);
    for (i = 0; i < 6; i++) {
        s->home[i] = (ik_real)start[i];
        s->parents[i] = i - 1;
    }
    if (r == IK_OK && ik_chain_closed_form(&ur.chain, &ur_form, NULL) == IK_CLOSED_FORM_NONE)
        r = IK_ERR_BAD_ARG;
    set_ur_ranges(UR_RANGES_HALF);
    if (r == IK_OK)
        r = ik_chain_fk(&ur.chain, s->home, NULL, &flange);
    ur_rot = flange.rot;
    put_point(s->target[0], flange.pos);
    return r;
}

// The humanoid standing, the arms raised 45 degrees forward and the elbows bent 70 (example
// 09's posture); the targets where its effectors are then, the gaze 1.2 m ahead and 0.5 m
// to the left at eye height.
static ik_result build_humanoid(web_scene *s)
{
    ik_xform f[HUMANOID_EFFECTORS];
    ik_result r = humanoid_build(&human);
    int side, i;
    set_sizes(s, HUMANOID_DOF, HUMANOID_JOINTS, HUMANOID_EFFECTORS, HUMANOID_EFFECTORS);
    if (r != IK_OK)
        return r;
    humanoid_rest(&human, s->home);
    for (side = 0; side < 2; side++) {
        const int k = human.index[HUMANOID_L_SHOULDER + side * HUMANOID_RIGHT_ARM];
        ik_quat down = ik_quat_from_axis_angle(ik_vec3_make(0, 0, side ? 1 : -1), 80 * IK_PI / 180);
        ik_quat forward = ik_quat_from_axis_angle(ik_vec3_make(-1, 0, 0), 45 * IK_PI / 180);
        ik_vec3 v = ik_quat_to_expmap(ik_quat_mul(forward, down));
        s->home[k] = v.x;
        s->home[k + 1] = v.y;
        s->home[k + 2] = v.z;
        s->home[k + 3] = 70 * IK_PI / 180; // the elbow
    }
    r = humanoid_effector_frames(&human, s->home, f);
    for (i = 0; i < HUMANOID_EFFECTORS; i++)
        put_point(s->target[i], f[i].pos);
    human_feet_rot[0] = f[HUMANOID_LEFT_FOOT].rot;
    human_feet_rot[1] = f[HUMANOID_RIGHT_FOOT].rot;
    s->target[HUMANOID_GAZE][0] += 0.5;
    s->target[HUMANOID_GAZE][2] += 1.2;
    for (i = 0; i < HUMANOID_JOINTS; i++)
        s->parents[i] = human.parents[i];
    return r;
}

// Builds the three scenes at their start. 0, or -1 if ik.h refuses one (never expected).
EMSCRIPTEN_KEEPALIVE int ikw_init(void)
{
    ik_result r[SCENE_COUNT];
    int i, k;
    memset(scenes, 0, sizeof scenes);
    r[SCENE_LIMB] = build_limb(&scenes[SCENE_LIMB]);
    r[SCENE_ARM] = build_arm(&scenes[SCENE_ARM]);
    r[SCENE_HUMANOID] = build_humanoid(&scenes[SCENE_HUMANOID]);
    r[SCENE_UR] = build_ur(&scenes[SCENE_UR]);
    for (i = 0; i < SCENE_COUNT; i++) {
        web_scene *s = &scenes[i];
        memcpy(s->q, s->home, sizeof s->q);
        memcpy(s->home_target, s->target, sizeof s->target);
        put3(s->report + 4, s->dof, s->joints, s->effectors);
        s->report[7] = s->targets;
        for (k = 0; k < s->joints; k++)
            s->limits[k] = 0.5;
        if (r[i] != IK_OK)
            return -1;
    }
    return 0;
}

static web_scene *scene_at(int scene)
{
    return scene >= 0 && scene < SCENE_COUNT ? &scenes[scene] : NULL;
}

// Sets target `which` of scene to (x, y, z), model frame (see the top of this file). 0 or -1.
EMSCRIPTEN_KEEPALIVE int ikw_set_target(int scene, int which, double x, double y, double z)
{
    web_scene *s = scene_at(scene);
    if (!s || which < 0 || which >= s->targets || !isfinite(x) || !isfinite(y) || !isfinite(z))
        return -1;
    put3(s->target[which], x, y, z);
    return 0;
}

// The arm's solver: 0 DLS, 1 SDLS, 2 CCD, 3 ik_arm_solve, 4 FABRIK, 5 the closed form at the
// swivel. 0 or -1.
EMSCRIPTEN_KEEPALIVE int ikw_set_method(int method)
{
    if (method < 0 || method >= METHOD_COUNT)
        return -1;
    arm_method = method;
    return 0;
}

// The UR5e's joint ranges: 0 +-180 degrees (each answer listed once), 1 +-360 as shipped (with
// every whole-turn equivalent), 2 +-180 with the elbow at 0 .. 180 (half the answers outside).
// 0, or -1 for another value.
EMSCRIPTEN_KEEPALIVE int ikw_set_ur_ranges(int ranges)
{
    if (ranges < 0 || ranges >= UR_RANGES_COUNT)
        return -1;
    set_ur_ranges(ranges);
    return 0;
}

// Turns the UR5e's flange target by angle (radians) about the model frame's axis (x, y, z).
// 0, or -1 for a bad axis or angle.
EMSCRIPTEN_KEEPALIVE int ikw_ur_rotate_target(double x, double y, double z, double angle)
{
    const double n = sqrt(x * x + y * y + z * z);
    ik_vec3 axis;
    if (!(n > 0) || !isfinite(n) || !isfinite(angle))
        return -1;
    axis = ik_vec3_make((ik_real)(x / n), (ik_real)(y / n), (ik_real)(z / n));
    ur_rot = ik_quat_normalize(ik_quat_mul(ik_quat_from_axis_angle(axis, (ik_real)angle), ur_rot));
    return 0;
}

// The UR5e's flange target where joint values q1 .. q6 (radians) put the flange. 0, or -1 for a
// non-finite value.
EMSCRIPTEN_KEEPALIVE int ikw_ur_target_at(double q1, double q2, double q3, double q4, double q5,
                                          double q6)
{
    const double q[6] = { q1, q2, q3, q4, q5, q6 };
    ik_real state[6];
    ik_xform flange;
    int j;
    for (j = 0; j < 6; j++) {
        if (!isfinite(q[j]))
            return -1;
        state[j] = (ik_real)q[j];
    }
    if (ik_chain_fk(&ur.chain, state, NULL, &flange) != IK_OK)
        return -1;
    ur_rot = flange.rot;
    put_point(scenes[SCENE_UR].target[0], flange.pos);
    return 0;
}

// Back to the scene's start: state and targets (the UR5e's flange pointing down again). 0 or -1.
EMSCRIPTEN_KEEPALIVE int ikw_reset(int scene)
{
    web_scene *s = scene_at(scene);
    ik_xform flange;
    if (!s)
        return -1;
    memcpy(s->q, s->home, sizeof s->q);
    memcpy(s->target, s->home_target, sizeof s->target);
    if (scene == SCENE_UR && ik_chain_fk(&ur.chain, s->home, NULL, &flange) == IK_OK)
        ur_rot = flange.rot;
    return 0;
}

static ik_result solve_limb(web_scene *s, ik_solve_info *info)
{
    ik_limb_opts opts = ik_default_limb_opts();
    ik_limb_target t;
    t.pos = vec(s->target[0]);
    t.rot = ik_quat_identity();
    t.use_rotation = t.use_swivel = false;
    t.pole = vec(s->target[1]);
    t.swivel = 0;
    return ik_limb_solve_prepared(&limb_prepared, &t, &opts, s->q, NULL, info);
}

// The iiwa's swivel within its swivel intervals nearest the state's (an end: a little inside),
// into *swivel; false if there is none.
static bool arm_nearest_swivel(ik_xform pose, const ik_real *q, ik_real *swivel)
{
    ik_swivel_interval iv[64];
    ik_real now, gap = -1;
    int n, i, k;
    if (ik_closed_form_swivel(&arm_form, q, &now) != IK_OK ||
        ik_closed_form_swivel_intervals(&arm_form, pose, iv, 64, &n) != IK_OK)
        return false;
    for (i = 0; i < n && i < 64; i++)
        for (k = 0; k < 2; k++) {
            ik_real inside =
                (iv[i].hi - iv[i].lo) / 2 < IK_R(1e-3) ? (iv[i].hi - iv[i].lo) / 2 : IK_R(1e-3);
            ik_real x = k ? iv[i].hi - inside : iv[i].lo + inside,
                    d = fabs(remainder(x - now, 2 * IK_PI));
            if (gap < 0 || d < gap)
                gap = d, *swivel = x;
        }
    return gap >= 0;
}

// The iiwa's closed form: the answer within the limits nearest the state at its swivel, else at
// the nearest swivel with one; the state kept if there is none.
static ik_result solve_arm_closed(web_scene *s, ik_xform pose, ik_solve_info *info)
{
    ik_closed_solution best;
    ik_closed_info ci;
    ik_real swivel = 0;
    ik_result r = ik_closed_form_solve(&arm_form, pose, s->q, NULL, &best, 1, &ci);
    if (r == IK_OK && ci.status != IK_STATUS_CONVERGED && arm_nearest_swivel(pose, s->q, &swivel))
        r = ik_closed_form_solve_swivel(&arm_form, pose, swivel, s->q, NULL, &best, 1, &ci);
    if (r == IK_OK && ci.status == IK_STATUS_CONVERGED)
        memcpy(s->q, best.q, 7 * sizeof *s->q);
    info->status = r == IK_OK && ci.count > 0 ? ci.status : IK_STATUS_UNREACHABLE;
    info->iterations = 0;
    return r;
}

static ik_result solve_arm(web_scene *s, ik_solve_info *info)
{
    ik_target t = ik_target_pose(ik_xform_make(arm_rot, vec(s->target[0])));
    if (arm_method == METHOD_CCD) {
        ik_ccd_opts opts = ik_default_ccd_opts();
        opts.max_sweeps = 500;
        return ik_ccd_solve(&arm.chain, &t, &opts, s->q, scratch, sizeof scratch, info);
    }
    if (arm_method == METHOD_CLOSED)
        return solve_arm_closed(s, ik_xform_make(arm_rot, vec(s->target[0])), info);
    if (arm_method == METHOD_FABRIK) { // (the flange's position: see docs/web.md)
        ik_fabrik_opts opts = ik_default_fabrik_opts();
        t = ik_target_position(vec(s->target[0]));
        opts.max_iterations = 500;
        return ik_fabrik_solve(&arm.chain, &t, &opts, s->q, scratch, sizeof scratch, info, NULL);
    }
    if (arm_method == METHOD_ARM) {
        ik_arm_opts opts = ik_default_arm_opts();
        return ik_arm_solve(&arm.chain, &t, &opts, s->q, scratch, sizeof scratch, info);
    } else {
        ik_jacobian_opts opts = ik_default_jacobian_opts();
        opts.method = arm_method == METHOD_SDLS ? IK_JACOBIAN_SDLS : IK_JACOBIAN_DLS;
        opts.tolerance = opts.rotation_tolerance = IK_R(1e-6);
        opts.max_iterations = 200;
        return ik_jacobian_solve(&arm.chain, &t, &opts, s->q, scratch, sizeof scratch, info);
    }
}

// Every solution of the UR5e's flange pose, listed nearest the state first; the first taken.
static ik_result solve_ur(web_scene *s, ik_solve_info *info)
{
    ik_result r = ik_closed_form_solve(&ur_form, ik_xform_make(ur_rot, vec(s->target[0])), s->q,
                                       NULL, ur_listed, UR_LISTED, &ur_info);
    if (r != IK_OK)
        ur_info.count = ur_info.total = ur_info.branches = 0; // (nothing to draw)
    else if (ur_info.count > 0)
        memcpy(s->q, ur_listed[0].q, 6 * sizeof *s->q); // (a 6R arm: q[6] unused)
    info->status = ur_info.status;
    info->iterations = 0;
    return r;
}

static ik_result solve_humanoid(web_scene *s, ik_solve_info *info)
{
    ik_jacobian_opts opts = ik_default_jacobian_opts();
    ik_effector e[HUMANOID_EFFECTORS];
    ik_xform feet[2], hands[2];
    int side;
    for (side = 0; side < 2; side++) {
        feet[side] = ik_xform_make(human_feet_rot[side], vec(s->target[side]));
        hands[side] = ik_xform_translation(vec(s->target[HUMANOID_LEFT_HAND + side]));
    }
    humanoid_effectors(&human, feet, hands, vec(s->target[HUMANOID_GAZE]), e);
    e[HUMANOID_LEFT_HAND].kind = e[HUMANOID_RIGHT_HAND].kind = IK_EFFECTOR_POSITION;
    opts.tolerance = IK_R(1e-5);
    opts.rotation_tolerance = IK_R(1e-4);
    opts.max_iterations = 200;
    opts.rest = s->home;
    return ik_skeleton_solve(&human.skeleton, e, HUMANOID_EFFECTORS, &opts, s->q, scratch,
                             sizeof scratch, info, NULL);
}

// The first listed solution of each closed-form answer (nearest first): its branch, flags,
// outside bits, distance, q, and its joints' and flange's frames, into ur_shown; the largest
// position and rotation errors of these solutions into the scene's report.
static void record_ur_solutions(web_scene *s)
{
    ik_xform f[7];
    ik_quat miss;
    ik_real position_error;
    int i, j, seen = 0, shown = 0;
    s->report[2] = s->report[3] = 0;
    for (i = 0; i < ur_info.count && shown < UR_SHOWN; i++) {
        const ik_closed_solution *c = &ur_listed[i];
        double *out = ur_shown + 3 + shown * UR_SHOWN_SIZE;
        if (seen & (1 << c->branch))
            continue;
        seen |= 1 << c->branch;
        put3(out, c->branch, c->flags, c->outside);
        out[3] = (double)c->distance;
        for (j = 0; j < 6; j++)
            out[4 + j] = (double)c->q[j];
        ik_chain_fk(&ur.chain, c->q, f, &f[6]);
        for (j = 0; j < 7; j++)
            put_frame(out + 10 + 7 * j, f[j]);
        miss = ik_quat_mul(ik_quat_conjugate(ur_rot), f[6].rot);
        position_error = ik_vec3_length(ik_vec3_sub(f[6].pos, vec(s->target[0])));
        s->report[2] = fmax(s->report[2], (double)position_error);
        s->report[3] = fmax(s->report[3], (double)ik_quat_to_axis_angle(miss, NULL));
        shown++;
    }
    put3(ur_shown, shown, ur_info.total, ur_info.branches);
}

// Every joint's frame and every effector's after a solve, and the joints' distance to their
// limits (a fraction of the range; 0.5 for a joint without limits).
static void record_frames(int scene, web_scene *s)
{
    ik_xform f[MAX_FRAMES];
    const arm_def *a = scene == SCENE_ARM ? &arm : &ur;
    int i, n = s->joints;
    if (scene == SCENE_LIMB)
        ik_chain_fk(&limb_chain, s->q, f, &f[3]);
    else if (scene == SCENE_ARM || scene == SCENE_UR)
        ik_chain_fk(&a->chain, s->q, f, &f[n]);
    else {
        ik_skeleton_fk(&human.skeleton, s->q, f);
        for (i = 0; i < HUMANOID_EFFECTORS; i++)
            f[n + i] = ik_xform_mul(f[human.effector_joint[i]], human.effector_offset[i]);
    }
    for (i = 0; i < n + s->effectors; i++)
        put_frame(s->frames[i], f[i]);
    for (i = 0; (scene == SCENE_ARM || scene == SCENE_UR) && i < n; i++) {
        const double lo = (double)a->joints[i].lo, hi = (double)a->joints[i].hi;
        const double v = (double)s->q[i], d = v - lo < hi - v ? v - lo : hi - v;
        s->limits[i] = d / (hi - lo);
    }
}

// Solves scene `repeats` times, each from the same start: the current state, or with again != 0
// the start of the solve before (the same solve again, for the caller to time many); keeps the
// last answer and records its frames. The status (an ik_status, >= 0), or an ik_result < 0 (the
// state kept), or -100 for a bad argument.
EMSCRIPTEN_KEEPALIVE int ikw_solve(int scene, int repeats, int again)
{
    web_scene *s = scene_at(scene);
    ik_solve_info info = { IK_STATUS_CONVERGED, 0, 0, 0 };
    ik_result r = IK_OK;
    int k;
    if (!s || repeats < 1)
        return -100;
    if (!again)
        memcpy(s->start, s->q, sizeof s->q);
    for (k = 0; k < repeats && r == IK_OK; k++) {
        memcpy(s->q, s->start, sizeof s->q);
        r = scene == SCENE_LIMB       ? solve_limb(s, &info)
            : scene == SCENE_ARM      ? solve_arm(s, &info)
            : scene == SCENE_HUMANOID ? solve_humanoid(s, &info)
                                      : solve_ur(s, &info);
    }
    s->report[0] = r == IK_OK ? (double)info.status : (double)r;
    s->report[1] = info.iterations;
    s->report[2] = (double)info.position_error;
    s->report[3] = (double)info.rotation_error;
    if (scene == SCENE_UR)
        record_ur_solutions(s);
    record_frames(scene, s);
    return (int)s->report[0];
}

// Where the page reads a scene: each a pointer into the module's memory (NULL: bad scene).
EMSCRIPTEN_KEEPALIVE double *ikw_frames(int scene)
{
    web_scene *s = scene_at(scene);
    return s ? &s->frames[0][0] : NULL;
}

EMSCRIPTEN_KEEPALIVE double *ikw_targets(int scene)
{
    web_scene *s = scene_at(scene);
    return s ? &s->target[0][0] : NULL;
}

EMSCRIPTEN_KEEPALIVE double *ikw_limits(int scene)
{
    web_scene *s = scene_at(scene);
    return s ? s->limits : NULL;
}

EMSCRIPTEN_KEEPALIVE int *ikw_parents(int scene)
{
    web_scene *s = scene_at(scene);
    return s ? s->parents : NULL;
}

// The UR5e's solutions (record_ur_solutions), its state before the last solve (where the
// solutions' distances are measured from) and its flange target's rotation (x y z w).
EMSCRIPTEN_KEEPALIVE double *ikw_ur_solutions(void)
{
    return ur_shown;
}

EMSCRIPTEN_KEEPALIVE double *ikw_ur_previous(void)
{
    static double previous[6];
    int j;
    for (j = 0; j < 6; j++)
        previous[j] = (double)scenes[SCENE_UR].start[j];
    return previous;
}

EMSCRIPTEN_KEEPALIVE double *ikw_ur_rotation(void)
{
    static double rot[4];
    put3(rot, (double)ur_rot.x, (double)ur_rot.y, (double)ur_rot.z);
    rot[3] = (double)ur_rot.w;
    return rot;
}

EMSCRIPTEN_KEEPALIVE double *ikw_report(int scene)
{
    web_scene *s = scene_at(scene);
    return s ? s->report : NULL;
}
