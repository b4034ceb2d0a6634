/* 03 exponential map versus Euler angles: the reference Jacobian IK experiment (seed 000).
   Five ball-joint links of length 1 along z, each joint at a random yaw-pitch-roll (angles in
   [0, pi]), the goal minus the start effector position; the effector walked along the line in
   steps of 0.001 by the pseudo-inverse until within 0.001 of the goal; the RMS over 100 trials
   of (steps - ideal), ideal = |goal - start| / 0.001 + 1; three runs. Two tables from the same
   starts: the reference's protocol (MSVC's rand() from seed 1; poses and parameters in float,
   re-read from each joint's matrix before every step, the pitch as asinf; its counting) beside
   its published figures, and ik.h's (ik_jacobian_solve, IK_JACOBIAN_PINV, in double). Euler
   angles under the reference's protocol give 52.178 / 99.253 / 97.719 (as an independent
   replica) against its 52.341 / 99.646 / 98.148, the exponential map 1.02 / 1.03 / 1.05 against
   0.678 / 0.854 / 0.656 (exact steps give -1 a walk): about half of its walks took one step more
   than ours, something in D3DX's float routines that we cannot run (docs/jacobian.md). In
   double both parameterizations walk the line: the reference's Euler error comes from asinf.
   Picture: expmap_vs_euler.svg, the distance from the line during run A's first trial.
   Usage: 03_expmap_vs_euler [trials per run] [-o figure-dir]   (default 100; make test runs 3) */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"
#include <stdlib.h>

#define MAXCALLS 10000
#define STEP     0.001
#define f32(x)   ((ik_real)(float)(x)) // rounded to float, as the reference stores it
static double calls_axis[MAXCALLS + 1], stray[4][MAXCALLS + 1]; // run A, trial 1, and
static int shown[4];                                            // its steps
static unsigned char scratch[1 << 14];
static ik_chain chain;

// MSVC's rand() from its default seed 1
static unsigned long msvc_state = 1;
static int msvc_rand(void)
{
    msvc_state = (msvc_state * 214013ul + 2531011ul) & 0xfffffffful;
    return (int)((msvc_state >> 16) & 0x7fff);
}

// One walk: the reference's (float poses) or ik.h's (double), Euler angles or exponential maps.
typedef struct walker {
    bool reference, euler;
    ik_mat3 rot[5]; // the reference's joint rotations, each entry a float
    ik_real q[15];  // ik.h's joint variables
} walker;

static ik_vec3 f32v(ik_vec3 v)
{
    return ik_vec3_make(f32(v.x), f32(v.y), f32(v.z));
}
static ik_mat3 f32m(ik_mat3 m)
{
    for (int i = 0; i < 9; i++)
        m.m[i / 3][i % 3] = f32(m.m[i / 3][i % 3]);
    return m;
}

// The reference's effector R0 (z + R1 (z + ... R4 z)) in float; with at >= 0 its derivative in
// a parameter x of joint `at`, dR/dx = [w]x r (r the joint's rotation; the links beyond it stay).
static ik_vec3 ref_effector(const ik_mat3 *rot, int at, ik_mat3 r, ik_vec3 w)
{
    ik_vec3 p = ik_vec3_zero();
    for (int i = 4; i >= 0; i--) {
        p = f32v(ik_mat3_mul_vec3(i == at ? r : rot[i],
                                  i < at ? p : ik_vec3_add(p, ik_vec3_make(0, 0, 1))));
        if (i == at)
            p = f32v(ik_vec3_cross(w, p));
    }
    return p;
}

static ik_mat3 ref_rotation(ik_vec3 x, bool euler)
{
    return f32m(euler ? ik_mat3_from_euler(x, IK_EULER_YXZ)
                      : ik_quat_to_mat3(ik_quat_from_expmap(x)));
}

// A joint's parameters x re-read from its float matrix m: the exponential map, or (yaw, pitch,
// roll) with the pitch as asinf (and the reference's half turn on yaw and roll where
// cos(pitch) < 1e-6). *r = R(x); w[k]: dR/dx_k = [w[k]]x R, a column of the exponential map's
// Jacobian, or for R = Ry(yaw) Rx(pitch) Rz(roll) the axes y, Ry x and R z.
static ik_vec3 ref_params(ik_mat3 m, bool euler, ik_mat3 *r, ik_vec3 *w)
{
    ik_vec3 x = f32v(ik_quat_to_expmap(ik_quat_from_mat3(m)));
    if (euler) {
        x = ik_vec3_make((ik_real)atan2f((float)m.m[0][2], (float)m.m[2][2]),
                         (ik_real)asinf((float)-m.m[1][2]),
                         (ik_real)atan2f((float)m.m[1][0], (float)m.m[1][1]));
        if (fabsf(cosf((float)x.y)) < 1e-6f) {
            x.x = f32(x.x + (m.m[0][2] > 0 ? 1 : -1) * (ik_real)3.141592654f);
            x.z = f32(x.z + (m.m[1][0] > 0 ? 1 : -1) * (ik_real)3.141592654f);
        }
    }
    ik_mat3 jl = ik_expmap_jacobian(x);
    *r = ref_rotation(x, euler);
    for (int k = 0; k < 3; k++)
        w[k] = ik_vec3_make(jl.m[0][k], jl.m[1][k], jl.m[2][k]);
    if (euler)
        w[0] = ik_vec3_make(0, 1, 0), w[2] = ik_vec3_make(r->m[0][2], r->m[1][2], r->m[2][2]),
        w[1] = ik_vec3_make((ik_real)cos((double)x.x), 0, -(ik_real)sin((double)x.x));
    return x;
}

static ik_vec3 effector(const walker *w)
{
    ik_xform e;
    if (w->reference)
        return ref_effector(w->rot, -1, w->rot[0], ik_vec3_zero());
    ik_chain_fk(&chain, w->q, NULL, &e);
    return e.pos;
}

// The reference's step: false once within a step of the goal.
static bool ref_step(walker *w, ik_vec3 goal)
{
    const ik_real step = (ik_real)0.001f;
    ik_vec3 pv = f32v(ik_vec3_sub(goal, effector(w)));
    ik_real len = f32(ik_vec3_length(pv)), x[15], jac[45], pinv[45];
    if (len < step)
        return false;
    pv = f32v(ik_vec3_scale(pv, f32(step / len)));
    for (int i = 0; i < 5; i++) { // the Jacobian, 3 x 15, at the parameters re-read
        ik_mat3 r;
        ik_vec3 axis[3], e = ref_params(w->rot[i], w->euler, &r, axis);
        x[3 * i] = e.x, x[3 * i + 1] = e.y, x[3 * i + 2] = e.z;
        for (int k = 0, c = 3 * i; k < 3; k++, c++) {
            ik_vec3 dp = ref_effector(w->rot, i, r, axis[k]);
            jac[c] = dp.x, jac[15 + c] = dp.y, jac[30 + c] = dp.z;
        }
    }
    if (ik_svd_pinv(jac, 3, 15, 0, pinv, scratch, sizeof scratch) != IK_OK)
        exit(1);
    for (int c = 0; c < 15; c++) // the step, added to the float parameters
        x[c] = f32(x[c] + pinv[3 * c] * pv.x + pinv[3 * c + 1] * pv.y + pinv[3 * c + 2] * pv.z);
    for (int i = 0; i < 5; i++)
        w->rot[i] = ref_rotation(ik_vec3_make(x[3 * i], x[3 * i + 1], x[3 * i + 2]), w->euler);
    return true;
}

// ik.h's step: one call of ik_jacobian_solve; false once within a step of the goal.
static bool lib_step(walker *w, ik_vec3 goal)
{
    ik_jacobian_opts o = ik_default_jacobian_opts();
    ik_target target = ik_target_position(goal);
    o.method = IK_JACOBIAN_PINV, o.ball_param = w->euler ? IK_BALL_EULER : IK_BALL_EXPMAP;
    o.max_iterations = 1, o.max_step = (ik_real)STEP, o.tolerance = 0;
    if ((double)ik_vec3_length(ik_vec3_sub(goal, effector(w))) < STEP)
        return false;
    if (ik_jacobian_solve(&chain, &target, &o, w->q, scratch, sizeof scratch, NULL) < 0)
        exit(1);
    return true;
}

// Walks to the goal; returns the count (the reference counts its Euler walk from 1), and if dev
// is not NULL, dev[k] = the effector's distance from the line start-goal after k steps.
static int walk(walker *w, ik_vec3 goal, double *dev)
{
    int first = w->reference && w->euler, k;
    ik_vec3 start = effector(w), dir = ik_vec3_normalize(ik_vec3_sub(goal, start));
    for (k = 0;; k++) {
        ik_vec3 d = ik_vec3_sub(effector(w), start);
        if (dev)
            dev[k] = (double)ik_vec3_length(ik_vec3_add_scaled(d, dir, -ik_vec3_dot(d, dir)));
        if (first + k >= MAXCALLS || !(w->reference ? ref_step(w, goal) : lib_step(w, goal)))
            return first + k;
    }
}

// One trial's four walkers from the next 15 rand() values; returns the ideal count.
static int start_trial(walker *w, ik_vec3 *goal)
{
    for (int i = 0; i < 5; i++) {
        ik_real a[3];
        for (int k = 2; k >= 0; k--) // roll, pitch, yaw
            a[k] = (ik_real)(3.141592654f * (float)msvc_rand() / 32767.0f);
        ik_mat3 r = ik_mat3_from_euler(ik_vec3_make(a[0], a[1], a[2]), IK_EULER_YXZ);
        ik_vec3 v = ik_quat_to_expmap(ik_quat_from_mat3(r));
        for (int p = 0; p < 4; p++) {
            w[p].reference = p < 2, w[p].euler = p % 2, w[p].rot[i] = f32m(r);
            w[p].q[3 * i] = v.x, w[p].q[3 * i + 1] = v.y, w[p].q[3 * i + 2] = v.z;
        }
    }
    *goal = ik_vec3_negate(effector(&w[0]));
    return (int)(f32(ik_vec3_length(*goal)) * 2 / (ik_real)0.001f) + 1;
}

// The three runs of `trials` trials, back to back: rms[run][walker].
static void experiment(int trials, double rms[3][4])
{
    for (int run = 0; run < 3; run++) {
        double sum[4] = { 0, 0, 0, 0 };
        for (int t = 0; t < trials; t++) {
            walker w[4];
            ik_vec3 goal;
            int ideal = start_trial(w, &goal);
            for (int p = 0; p < 4; p++) {
                int steps = walk(&w[p], goal, run + t == 0 ? stray[p] : NULL);
                if (run + t == 0)
                    shown[p] = steps - (p == 1);
                sum[p] += (double)(steps - ideal) * (double)(steps - ideal);
            }
        }
        for (int p = 0; p < 4; p++)
            rms[run][p] = sqrt(sum[p] / trials);
    }
}

static void figure(const char *dir)
{
    static const char *const color[4] = { SVG_GREEN, SVG_RED, SVG_BLUE, SVG_ORANGE };
    static const char *const name[4] = { "exp map, ref. float", "Euler, ref. float",
                                         "exp map, ik.h", "Euler, ik.h" };
    int most = 0;
    svg fig;
    for (int i = 0; i <= MAXCALLS; i++)
        calls_axis[i] = i;
    for (int p = 0; p < 4; p++)
        most = shown[p] > most ? shown[p] : most;
    if (!svg_open(&fig, dir, "expmap_vs_euler.svg", 480, 320))
        return;
    svg_panel(&fig, 0, 0, 480, 320, 0, most, 1e-8, 1, SVG_LOGY);
    svg_axes(&fig, "steps of 0.001", "distance from the line",
             "5 ball joints walked along a line (run A, trial 1)");
    for (int p = 0; p < 4; p++) {
        svg_line(&fig, calls_axis + 1, stray[p] + 1, shown[p], color[p], p == 0 || p == 3);
        svg_legend(&fig, color[p], p == 0 || p == 3, name[p]);
    }
    svg_close(&fig);
}

int main(int argc, char **argv)
{
    static const double pub[3][2] = { { 0.678, 52.341 }, { 0.854, 99.646 }, { 0.656, 98.148 } };
    int trials = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 100;
    double rms[3][4];
    ik_joint joints[5];
    for (int i = 0; i < 5; i++)
        joints[i] = ik_joint_ball(ik_xform_translation(ik_vec3_make(0, 0, i ? 1 : 0)));
    chain = ik_chain_make(joints, 5, ik_xform_translation(ik_vec3_make(0, 0, 1)));
    experiment(trials, rms);
    printf("RMS of (steps - ideal) over %d trials, the reference's protocol (MSVC rand(), float, "
           "its counting):\n| run | exponential map | reference | Euler angles | reference |\n"
           "|-----|-----------------|-----------|--------------|-----------|\n",
           trials);
    for (int run = 0; run < 3; run++)
        printf("| %c   | %15.3f | %9.3f | %12.3f | %9.3f |\n", 'A' + run, rms[run][0], pub[run][0],
               rms[run][1], pub[run][1]);
    printf("\nik.h (ik_jacobian_solve in %s, calls counted from 0), the same starts:\n"
           "| run | exponential map | Euler angles |\n|-----|-----------------|--------------|\n",
           sizeof(ik_real) == sizeof(float) ? "float" : "double");
    for (int run = 0; run < 3; run++)
        printf("| %c   | %15.3f | %12.3f |\n", 'A' + run, rms[run][2], rms[run][3]);
    figure(svg_dir(argc, argv));
    return 0;
}
