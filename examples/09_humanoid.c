/* 09 a humanoid walking on uneven ground: the skeleton of bench/humanoid.h (a floating pelvis,
   spine, neck, head, clavicles, arms and legs with human limits; 27 joints, 55 values) solved by
   ik_skeleton_solve() (damped least squares) with its five standard effectors: the feet as full
   poses on a bumpy height field (priority 0: held first), the hands as full poses on circles
   in front of the body and the head looking at a moving point (priority 1). The feet step
   forward 0.35 m every 50 frames, lifting 8 cm, each planted flat on the slope it lands on;
   the pelvis is pulled (opts.rest, in the null space of the effectors) toward a path between
   the feet that bobs and sways. 1000 frames, each solved from the previous frame's answer by
   ik_skeleton_solve_prepared(): the skeleton and its effectors prepared once (ik_skeleton_prepare()).
   Look at: a frame takes about two iterations; every effector is met within 1e-4 m and 1e-3 rad
   (solved to a tenth of that) in every frame, within every joint's limits (hinges within
   lo..hi, balls by ik_ball_limit_contains()), and no joint turns more than 0.1 rad between
   frames. The program checks these by forward kinematics and returns 1 if one fails (its times
   are printed, not checked).
   Picture: humanoid.svg, eight of the frames side by side, seen from the figure's right.
   Usage: 09_humanoid [-o figure-dir] */
#define _POSIX_C_SOURCE 199309L
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "../bench/humanoid.h"
#include "svg.h"
#include <stdlib.h>
#include <time.h>

#define PI         3.141592653589793
#define FRAMES     1000
#define CYCLE      100  // frames per stride (a step of each foot)
#define SWING      40   // frames a foot is in the air, each stride
#define STRIDE     0.7  // metres per stride (two steps)
#define SHOTS      8    // frames drawn
#define TOL        1e-4 // the check: metres
#define ROT_TOL    1e-3 // radians
#define MAX_CHANGE 0.1  // radians per frame: a larger change of a joint is a jump

// The ground's height at (x, z): bumps of a few centimetres, slopes up to about 12 degrees.
static double ground(double x, double z)
{
    return 0.035 * sin(2.1 * z + 0.9 * x) + 0.02 * sin(5.3 * z + 1.0) * cos(3.0 * x);
}

// The ground's orientation at (x, z): the rotation taking y to its normal (central differences).
static ik_quat ground_tilt(double x, double z)
{
    const double d = 1e-5, gx = (ground(x + d, z) - ground(x - d, z)) / (2 * d);
    const double gz = (ground(x, z + d) - ground(x, z - d)) / (2 * d);
    return ik_quat_from_two_vectors(ik_vec3_make(0, 1, 0),
                                    ik_vec3_make((ik_real)-gx, 1, (ik_real)-gz));
}

static ik_vec3 vec(double x, double y, double z)
{
    return ik_vec3_make((ik_real)x, (ik_real)y, (ik_real)z);
}

// The foot's distance along z at frame t (side 0 left, 1 right): planted, then swung one stride
// forward in SWING frames (smoothly), out of phase with the other foot. *lift: 0..1 in the air.
static double foot_z(int side, int t, double *lift)
{
    const int tau = t - side * CYCLE / 2, n = tau < 0 ? 0 : tau / CYCLE, u = tau - n * CYCLE;
    double s = tau < 0 ? 0 : u < SWING ? (double)u / SWING : 1;
    s = s * s * (3 - 2 * s);
    *lift = sin(PI * s);
    return (side ? 0 : -STRIDE / 2) + STRIDE * (n + s);
}

// The sole's target at frame t: on the ground (8 cm above it at mid-swing), tilted as the ground
// under it.
static ik_xform foot_target(int side, int t)
{
    const double x = side ? -0.09 : 0.09;
    double lift, z = foot_z(side, t, &lift);
    return ik_xform_make(ground_tilt(x, z), vec(x, ground(x, z) + 0.08 * lift, z));
}

// Where the pelvis is pulled at frame t: between the feet, 4 cm lower than standing, bobbing
// twice a stride (highest when one foot is in mid-swing) and swaying 3 cm toward the other.
static ik_vec3 pelvis_path(int t, double standing)
{
    double lift, zl = foot_z(0, t, &lift), zr = foot_z(1, t, &lift);
    double y = standing - 0.04 + (ground(0.09, zl) + ground(-0.09, zr)) / 2;
    const double phase = 2 * PI * (t - SWING / 2) / CYCLE; // (0: the left foot in mid-swing)
    return vec(-0.03 * cos(phase), y + 0.015 * cos(2 * phase), (zl + zr) / 2);
}

// A palm's target at frame t: a circle of 8 cm radius (upright, along the walk) about the palm's
// place in the posture, home (relative to the pelvis), the two hands in opposite phases, turned
// about the forearm by up to 15 degrees from home's rotation.
static ik_xform hand_target(int side, int t, ik_vec3 pelvis, ik_xform home)
{
    const double a = 2 * PI * t / CYCLE + side * PI;
    ik_quat turn =
        ik_quat_from_axis_angle(vec(side ? -1 : 1, 0, 0), (ik_real)(0.26 * sin(2 * PI * t / 150)));
    ik_vec3 centre = ik_vec3_add(pelvis, home.pos);
    return ik_xform_make(ik_quat_mul(home.rot, turn),
                         ik_vec3_add(centre, vec(0, 0.08 * cos(a), 0.08 * sin(a))));
}

// The point the head looks at, 3 m ahead of the pelvis, wandering.
static ik_vec3 look_at(int t, ik_vec3 pelvis)
{
    return ik_vec3_add(pelvis,
                       vec(1.5 * sin(2 * PI * t / 300), 0.6 + 0.3 * sin(2 * PI * t / 170), 3));
}

typedef struct scene {
    humanoid h;
    ik_real posture[HUMANOID_DOF]; // standing, the arms forward: pulled toward (opts.rest)
    ik_real rest[HUMANOID_DOF];    // the posture moved onto the pelvis's path
    ik_xform hands[2];             // the palms in the posture, relative to the pelvis
    ik_effector effectors[HUMANOID_EFFECTORS];
} scene;

// The effectors (and the rest pose pulled toward) at frame t.
static void targets(scene *s, int t)
{
    ik_xform feet[2], hands[2];
    ik_vec3 pelvis = pelvis_path(t, (double)s->posture[1]);
    int side;
    for (side = 0; side < 2; side++) {
        feet[side] = foot_target(side, t);
        hands[side] = hand_target(side, t, pelvis, s->hands[side]);
    }
    humanoid_effectors(&s->h, feet, hands, look_at(t, pelvis), s->effectors);
    memcpy(s->rest, s->posture, sizeof s->rest);
    s->rest[0] = pelvis.x;
    s->rest[1] = pelvis.y;
    s->rest[2] = pelvis.z;
}

// The angle between two unit vectors.
static double angle(ik_vec3 a, ik_vec3 b)
{
    return atan2((double)ik_vec3_length(ik_vec3_cross(a, b)), (double)ik_vec3_dot(a, b));
}

// The largest error of any effector at q, by forward kinematics: *pos (m) and *rot (radians).
static void errors(const scene *s, const ik_real *q, double *pos, double *rot)
{
    ik_xform f[HUMANOID_EFFECTORS];
    int e;
    humanoid_effector_frames(&s->h, q, f);
    *pos = *rot = 0;
    for (e = 0; e < HUMANOID_EFFECTORS; e++) {
        const ik_effector *x = &s->effectors[e];
        ik_quat d = ik_quat_mul(ik_quat_conjugate(f[e].rot), ik_quat_normalize(x->target_rot));
        ik_vec3 to = ik_vec3_normalize(ik_vec3_sub(x->target, f[e].pos));
        double p = (double)ik_vec3_length(ik_vec3_sub(x->target, f[e].pos));
        double r = x->kind == IK_EFFECTOR_AIM
                       ? angle(ik_quat_rotate(f[e].rot, x->axis), to)
                       : 2 * atan2((double)ik_vec3_length(vec(d.x, d.y, d.z)), fabs((double)d.w));
        *pos = fmax(*pos, x->kind == IK_EFFECTOR_AIM ? 0 : p);
        *rot = fmax(*rot, r);
    }
}

// The largest rotation of a joint between states a and b (radians), and of the pelvis's
// position (*move, metres); *joint: the joint that turned most.
static double change(const scene *s, const ik_real *a, const ik_real *b, double *move, int *joint)
{
    double most = 0;
    int i;
    *move = (double)ik_vec3_length(vec(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    for (i = HUMANOID_PELVIS; i < HUMANOID_JOINTS; i++) {
        const int k = s->h.index[i];
        double d = fabs((double)(a[k] - b[k]));
        if (s->h.joints[i].type == IK_JOINT_BALL) {
            ik_quat ra = ik_quat_from_expmap(vec(a[k], a[k + 1], a[k + 2]));
            ik_quat rb = ik_quat_from_expmap(vec(b[k], b[k + 1], b[k + 2]));
            d = (double)ik_quat_to_axis_angle(ik_quat_mul(ik_quat_conjugate(ra), rb), NULL);
        }
        if (d > most) {
            most = d;
            *joint = i;
        }
    }
    return most;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// The posture: humanoid_rest() with the arms raised 45 degrees forward and the elbows bent 70
// (the palms in front of the chest, where their circles go).
static void posture(const humanoid *h, ik_real *q)
{
    int side;
    humanoid_rest(h, q);
    for (side = 0; side < 2; side++) {
        const int shoulder = HUMANOID_L_SHOULDER + side * HUMANOID_RIGHT_ARM;
        const int k = h->index[shoulder];
        ik_quat down = ik_quat_from_axis_angle(vec(0, 0, side ? 1 : -1), (ik_real)(80 * PI / 180));
        ik_quat forward = ik_quat_from_axis_angle(vec(-1, 0, 0), (ik_real)(45 * PI / 180));
        ik_vec3 v = ik_quat_to_expmap(ik_quat_mul(forward, down));
        q[k] = v.x;
        q[k + 1] = v.y;
        q[k + 2] = v.z;
        q[k + 3] = (ik_real)(70 * PI / 180); // the elbow
    }
}

// The scene and the answer at frame 0, solved from the posture moved onto the pelvis's path.
// 0 if the humanoid or the solve fails, or the posture breaks a limit.
static int setup(scene *s, ik_real *q, void *scratch, size_t size)
{
    ik_jacobian_opts o = ik_default_jacobian_opts();
    ik_xform f[HUMANOID_EFFECTORS];
    int side;
    if (humanoid_build(&s->h) != IK_OK)
        return 0;
    posture(&s->h, s->posture);
    humanoid_effector_frames(&s->h, s->posture, f);
    for (side = 0; side < 2; side++) {
        s->hands[side] = f[HUMANOID_LEFT_HAND + side];
        s->hands[side].pos = ik_vec3_sub(s->hands[side].pos, vec(0, s->posture[1], 0));
    }
    targets(s, 0);
    if (ik_skeleton_scratch_size(&s->h.skeleton, s->effectors, HUMANOID_EFFECTORS) > size)
        return 0;
    memcpy(q, s->rest, sizeof s->rest);
    o.rest = s->rest;
    o.max_iterations = 1000;
    return humanoid_limit_broken(&s->h, s->posture) < 0 &&
           ik_skeleton_solve(&s->h.skeleton, s->effectors, HUMANOID_EFFECTORS, &o, q, scratch, size,
                             NULL, NULL) == IK_OK;
}

// The frame of shot k.
static int shot_frame(int k)
{
    return k * (FRAMES - 1) / (SHOTS - 1);
}

// What the frames measured.
typedef struct report {
    double seconds[FRAMES];
    double worst_pos, worst_rot, most_turn, most_move;
    int met, iterations, most_iterations, turned, broken, broken_frame, errors;
} report;

// Frame t's answer q (last: the frame before's) checked by forward kinematics into m; printed
// every 100 frames and where a check fails.
static void record(const scene *s, const ik_real *q, const ik_real *last, int t, ik_result r,
                   const ik_solve_info *info, report *m)
{
    const int broken = humanoid_limit_broken(&s->h, q);
    double pos, rot, move = 0, turn = 0;
    int joint = 0, missed;
    errors(s, q, &pos, &rot);
    missed = pos > TOL || rot > ROT_TOL;
    m->errors += r != IK_OK;
    m->met += !missed;
    m->worst_pos = fmax(m->worst_pos, pos);
    m->worst_rot = fmax(m->worst_rot, rot);
    m->iterations += info->iterations;
    m->most_iterations =
        info->iterations > m->most_iterations ? info->iterations : m->most_iterations;
    if (broken >= 0 && m->broken < 0) {
        m->broken = broken;
        m->broken_frame = t;
    }
    if (t > 0)
        turn = change(s, last, q, &move, &joint);
    if (turn > m->most_turn) {
        m->most_turn = turn;
        m->turned = joint;
    }
    m->most_move = fmax(m->most_move, move);
    if (t % 100 == 0 || r != IK_OK || missed || broken >= 0)
        printf(" %5d | %10d %10.1f | %18.1e %12.1e | %6.3f%s\n", t, info->iterations,
               1e6 * m->seconds[t], pos, rot, (double)q[1],
               r != IK_OK    ? "  <- error"
               : broken >= 0 ? "  <- a limit broken"
               : missed      ? "  <- missed"
                             : "");
}

// The 1000 frames, each solved from the last answer and checked; the states at the shots kept.
static void run(scene *s, ik_real *q, void *scratch, size_t size, ik_real (*shots)[HUMANOID_DOF],
                report *m)
{
    static unsigned char prepared[1 << 13]; // (ik_skeleton_prepared_size(): about 2.3 kB)
    ik_jacobian_opts o = ik_default_jacobian_opts();
    ik_real last[HUMANOID_DOF];
    int t, shot = 0;
    o.tolerance = (ik_real)(TOL / 10); // (solved ten times finer than the check)
    o.rotation_tolerance = (ik_real)(ROT_TOL / 10);
    o.rest = s->rest;
    memset(m, 0, sizeof *m);
    m->broken = -1;
    if (ik_skeleton_prepare(&s->h.skeleton, s->effectors, HUMANOID_EFFECTORS, prepared,
                            sizeof prepared) != IK_OK) {
        m->errors = FRAMES;
        return;
    }
    printf(" frame | iterations  time (us) | position error (m)  angle (rad) | pelvis height\n");
    for (t = 0; t < FRAMES; t++) {
        ik_solve_info info = { IK_STATUS_CONVERGED, 0, 0, 0 };
        double start;
        ik_result r;
        memcpy(last, q, sizeof last);
        targets(s, t);
        start = now();
        r = ik_skeleton_solve_prepared(prepared, s->effectors, HUMANOID_EFFECTORS, &o, q, scratch,
                                       size, &info, NULL);
        m->seconds[t] = now() - start;
        record(s, q, last, t, r, &info, m);
        if (shot < SHOTS && t == shot_frame(shot))
            memcpy(shots[shot++], q, sizeof last);
    }
}

// A bone from a to b in the side view (z to the right, y up).
static void bone(svg *f, ik_vec3 a, ik_vec3 b, const char *color)
{
    double z[2] = { (double)a.z, (double)b.z }, y[2] = { (double)a.y, (double)b.y };
    svg_line(f, z, y, 2, color, 0);
}

// The figure at q: the far (left) limbs, the trunk and head, the near (right) limbs; each foot
// from the ankle to the heel, the ball of the foot and the toes' tip.
static void draw_figure(svg *f, const scene *s, const ik_real *q)
{
    static const char *const colors[3] = { "#b8c4d0", SVG_BLACK, SVG_BLUE };
    ik_xform fr[HUMANOID_JOINTS];
    int pass, i;
    ik_skeleton_fk(&s->h.skeleton, q, fr);
    for (pass = 0; pass < 3; pass++) {
        for (i = HUMANOID_SPINE1; i < HUMANOID_JOINTS; i++) {
            const int side = i >= HUMANOID_L_HIP ? (i - HUMANOID_L_HIP) / HUMANOID_RIGHT_LEG
                             : i >= HUMANOID_L_CLAVICLE
                                 ? (i - HUMANOID_L_CLAVICLE) / HUMANOID_RIGHT_ARM
                                 : -1;
            const int foot = i == HUMANOID_L_TOE || i == HUMANOID_R_TOE;
            const ik_xform *p = &fr[s->h.parents[i]];
            if (pass != (side < 0 ? 1 : 2 * side))
                continue;
            bone(f, foot ? ik_xform_apply(*p, vec(0, -0.07, -0.05)) : p->pos, fr[i].pos,
                 colors[pass]);
            if (foot) {
                bone(f, p->pos, ik_xform_apply(*p, vec(0, -0.07, -0.05)), colors[pass]);
                bone(f, fr[i].pos, ik_xform_apply(fr[i], vec(0, -0.02, 0.06)), colors[pass]);
            }
            if (i == HUMANOID_L_WRIST || i == HUMANOID_R_WRIST)
                bone(f, fr[i].pos, ik_xform_apply(fr[i], vec(side ? -0.16 : 0.16, 0, 0)),
                     colors[pass]);
        }
        if (pass == 1) { // the head: a circle about its middle
            ik_vec3 c = ik_xform_apply(fr[HUMANOID_HEAD], vec(0, 0.09, 0.02));
            fprintf(f->f,
                    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"white\" stroke=\"%s\" "
                    "stroke-width=\"1.8\"/>\n",
                    svg__x(f, (double)c.z), svg__y(f, (double)c.y), svg__x(f, 0.1) - svg__x(f, 0),
                    SVG_BLACK);
        }
    }
}

// The targets of frame t: the soles' and palms' (red), and where the head looks (a dashed line
// from the eyes toward the point).
static void draw_targets(svg *f, scene *s, const ik_real *q, int t)
{
    ik_xform e[HUMANOID_EFFECTORS];
    ik_vec3 to;
    int k;
    targets(s, t);
    humanoid_effector_frames(&s->h, q, e);
    for (k = 0; k < HUMANOID_GAZE; k++)
        svg_dot(f, (double)s->effectors[k].target.z, (double)s->effectors[k].target.y, 3, SVG_RED,
                0);
    to = ik_vec3_normalize(ik_vec3_sub(s->effectors[HUMANOID_GAZE].target, e[HUMANOID_GAZE].pos));
    to = ik_vec3_add(e[HUMANOID_GAZE].pos, ik_vec3_scale(to, (ik_real)0.45));
    {
        double z[2] = { (double)e[HUMANOID_GAZE].pos.z, (double)to.z };
        double y[2] = { (double)e[HUMANOID_GAZE].pos.y, (double)to.y };
        svg_line(f, z, y, 2, SVG_RED, 1);
    }
}

// The ground under the near foot (x = -0.09), shaded, and the paths of the near palm's target
// and the pelvis over the whole run.
static void draw_ground(svg *f, scene *s, double z0, double z1)
{
    static double z[FRAMES], y[FRAMES];
    int k;
    fprintf(f->f, "<polygon fill=\"#d9cbb0\" points=\"%.1f,%.1f", svg__x(f, z0), svg__y(f, -0.2));
    for (k = 0; k <= 400; k++) {
        double zk = z0 + (z1 - z0) * k / 400;
        fprintf(f->f, " %.1f,%.1f", svg__x(f, zk), svg__y(f, ground(-0.09, zk)));
    }
    fprintf(f->f, " %.1f,%.1f\"/>\n", svg__x(f, z1), svg__y(f, -0.2));
    for (k = 0; k < FRAMES; k++) {
        ik_vec3 p = pelvis_path(k, (double)s->posture[1]);
        ik_xform hand = hand_target(1, k, p, s->hands[1]);
        z[k] = (double)hand.pos.z;
        y[k] = (double)hand.pos.y;
    }
    svg_line(f, z, y, FRAMES, "#f2b8b8", 0);
}

static void draw(scene *s, ik_real (*shots)[HUMANOID_DOF], const char *dir)
{
    svg f;
    int k;
    if (!svg_open(&f, dir, "humanoid.svg", 1200, 380))
        return;
    svg_panel(&f, 0, 0, 1200, 380, -0.6, 7.4, -0.2, 1.9, SVG_EQUAL);
    svg_axes(&f, "z (m), the walking direction", "y (m)",
             "a humanoid walking on uneven ground: 8 of 1000 frames, seen from its right");
    draw_ground(&f, s, f.x0, f.x1);
    for (k = 0; k < SHOTS; k++) {
        char label[32];
        draw_figure(&f, s, shots[k]);
        draw_targets(&f, s, shots[k], shot_frame(k));
        snprintf(label, sizeof label, "frame %d", shot_frame(k));
        svg_text_px(&f, svg__x(&f, (double)shots[k][2]), svg__y(&f, -0.15), "middle", label);
    }
    svg_legend(&f, SVG_BLUE, 0, "right limbs (near)");
    svg_legend(&f, "#b8c4d0", 0, "left limbs (far)");
    svg_legend(&f, SVG_RED, 1, "targets, gaze");
    svg_legend(&f, "#f2b8b8", 0, "right palm's path");
    svg_close(&f);
}

int main(int argc, char **argv)
{
    static scene s;
    static ik_real shots[SHOTS][HUMANOID_DOF];
    static report m;
    static unsigned char scratch[1 << 17];
    ik_real q[HUMANOID_DOF];
    int failed;
    if (!setup(&s, q, scratch, sizeof scratch)) {
        printf("FAILED: the humanoid or its first pose\n");
        return 1;
    }
    run(&s, q, scratch, sizeof scratch, shots, &m);
    qsort(m.seconds, FRAMES, sizeof *m.seconds, compare);
    printf("time per frame: median %.1f us, worst %.1f us; iterations: %.2f a frame, at most %d\n",
           1e6 * m.seconds[FRAMES / 2], 1e6 * m.seconds[FRAMES - 1], (double)m.iterations / FRAMES,
           m.most_iterations);
    printf("largest joint change between frames: %.4f rad (%s); the pelvis moved at most %.4f m\n",
           m.most_turn, humanoid_joint_name(m.turned), m.most_move);
    printf("frames with every effector within %g m and %g rad: %d of %d (largest errors %.1e m, "
           "%.1e rad)\n",
           TOL, ROT_TOL, m.met, FRAMES, m.worst_pos, m.worst_rot);
    if (m.broken >= 0)
        printf("a limit broken: %s at frame %d\n", humanoid_joint_name(m.broken), m.broken_frame);
    else
        printf("every joint within its limits in every frame\n");
    failed = m.errors || m.met < FRAMES || m.broken >= 0 || m.most_turn > MAX_CHANGE;
    printf("%s\n", failed ? "FAILED: an error, a missed effector, a limit broken or a jump"
                          : "every check passed");
    draw(&s, shots, svg_dir(argc, argv));
    return failed;
}
