/* ik.h benchmarks. Prints a table of medians over many runs (the machine is shared and noisy:
   compare rows of one run as ratios, not against figures from another day).
   Usage: bench [--runs=N] [--limits | --ball-limits | --skeleton | --fabrik | --closed] | bench --ccd-weights |
   bench --ccd-split | bench --damping-range | bench --further | bench --limb-calls=W,K,N |
   bench --ccd-calls=n,N[,S[,F]] | bench --jac-calls=m,k,N[,I] | bench --pin-calls=L,R,N[,I] |
   bench --path-calls=R[,P]
   (make bench; make callgrind counts instructions instead). One mode at a time; an unknown
   argument prints the usage and exits 2. --limits: only the last two tables (the SVD of
   rank-deficient matrices, DLS iterations with pinned joints); --ball-limits: only the tables of
   ball-joint limits (a projection; CCD and DLS on 7 limited ball joints); --skeleton: only the
   skeleton tables (bench/humanoid.h along a path and on random reachable targets, 100 N problems
   up to 10,000; cost against the joint count); --closed: every solution of a UR5e and a KUKA
   KR 6 R900 in closed form beside ik_arm_solve (closed_table()). --limb-calls makes N calls of the limb solver
   and nothing else, for instruction counts per solve: W 0 ik_limb_solve with q, 1 prepared with
   q, 2 prepared pose only; K 0 random pose targets, 1 random positions, 2 a path. Per solve:
   (Ir at N = 10000 - Ir at N = 0) / 10000 under valgrind --tool=callgrind.
   --ccd-calls and --jac-calls likewise (see calls() below). Built with -DBENCH_CALLGRIND and
   run under callgrind, --instructions=F prints every table with instructions in place of ns
   (make bench-instructions, bench/instructions.sh). */
#define _POSIX_C_SOURCE 199309L
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arms.h"
#include "industrial.h"
#ifdef BENCH_CALLGRIND
#include <valgrind/callgrind.h>
#endif

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// --instructions=F (make bench-instructions): run under valgrind --tool=callgrind
// --callgrind-out-file=F, every figure is a count of instructions instead of ns, read from
// callgrind's dump of each timed loop (F.1, F.2, ...). Counts repeat: one run is enough.
static const char *count_file;
#ifdef BENCH_CALLGRIND
static int count_dumps;

// The instructions in callgrind's dump number k (its "totals:" line), or -1.
static double dump_totals(int k)
{
    char name[512], line[256];
    double total = -1;
    FILE *f;
    snprintf(name, sizeof name, "%s.%d", count_file, k);
    f = fopen(name, "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "totals:", 7) == 0)
            total = atof(line + 7);
    if (f)
        fclose(f);
    return total;
}
#endif

// Starts a timing (or a count of instructions).
static double clock_start(void)
{
#ifdef BENCH_CALLGRIND
    if (count_file) {
        CALLGRIND_ZERO_STATS;
        return 0;
    }
#endif
    return now_ns();
}

// The ns (or instructions) since clock_start() returned t0.
static double clock_stop(double t0)
{
#ifdef BENCH_CALLGRIND
    if (count_file) {
        CALLGRIND_DUMP_STATS;
        return dump_totals(++count_dumps);
    }
#endif
    return now_ns() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static unsigned long long rng_state = 1;
static double rnd(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static volatile double sink;

// What one benchmark row times: `inner` calls of fn(arg), repeated `runs` times; the median.
typedef void (*bench_fn)(void *arg);
static double median_ns(bench_fn fn, void *arg, int inner, int runs)
{
    double *t = (double *)malloc(sizeof(double) * (size_t)runs), med;
    int r, i;
    for (i = 0; i < inner; i++) // warm-up
        fn(arg);
    for (r = 0; r < runs; r++) {
        double t0 = clock_start();
        for (i = 0; i < inner; i++)
            fn(arg);
        t[r] = clock_stop(t0) / inner;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    med = t[runs / 2];
    free(t);
    return med;
}

// median_ns() for n functions timed in turns: fn[k] gets the argument at arg + k * arg_size.
static void median_ns_interleaved(const bench_fn *fn, void *arg, size_t arg_size, int n, int inner,
                                  int runs, double *out)
{
    double *t = (double *)malloc(sizeof(double) * (size_t)(runs * n));
    int r, i, k;
    for (k = 0; k < n; k++)
        for (i = 0; i < inner; i++) // warm-up
            fn[k]((char *)arg + (size_t)k * arg_size);
    for (r = 0; r < runs; r++)
        for (k = 0; k < n; k++) {
            void *a = (char *)arg + (size_t)k * arg_size;
            double t0 = clock_start();
            for (i = 0; i < inner; i++)
                fn[k](a);
            t[k * runs + r] = clock_stop(t0) / inner;
        }
    for (k = 0; k < n; k++) {
        qsort(t + k * runs, (size_t)runs, sizeof(double), cmp_double);
        out[k] = t[k * runs + runs / 2];
    }
    free(t);
}

typedef struct chain_case {
    ik_chain chain;
    ik_joint joints[64];
    ik_real q[192];
    ik_real jac[6 * 192];
    ik_real pinv[192 * 6];
    unsigned char scratch[16384];
    int rows;
} chain_case;

static void run_fk(void *arg)
{
    chain_case *c = (chain_case *)arg;
    ik_xform e = ik_xform_identity();
    ik_chain_fk(&c->chain, c->q, NULL, &e);
    sink = (double)e.pos.x;
}

static void run_jacobian(void *arg)
{
    chain_case *c = (chain_case *)arg;
    ik_chain_jacobian(&c->chain, c->q, c->rows, c->jac, NULL);
    sink = (double)c->jac[0];
}

static void run_pinv(void *arg)
{
    chain_case *c = (chain_case *)arg;
    int dof = ik_chain_dof(&c->chain);
    ik_svd_pinv(c->jac, c->rows, dof, IK_R(1e-10), c->pinv, c->scratch, sizeof c->scratch);
    sink = (double)c->pinv[0];
}

typedef struct limb_case {
    ik_limb limb;
    ik_limb_prepared prepared;
    ik_limb_target targets[64];
    ik_real q[7];
    ik_limb_pose pose;
    int next;
} limb_case;

// ik_limb_solve(): checks and prepares the limb, writes q (exponential maps)
static void run_limb(void *arg)
{
    limb_case *c = (limb_case *)arg;
    ik_limb_solve(&c->limb, &c->targets[c->next++ & 63], NULL, c->q, NULL, NULL);
    sink = (double)c->q[3];
}

// a prepared limb, q out
static void run_limb_prepared(void *arg)
{
    limb_case *c = (limb_case *)arg;
    ik_limb_solve_prepared(&c->prepared, &c->targets[c->next++ & 63], NULL, c->q, NULL, NULL);
    sink = (double)c->q[3];
}

// a prepared limb, rotations out (q NULL: the pose is in/out)
static void run_limb_pose(void *arg)
{
    limb_case *c = (limb_case *)arg;
    ik_limb_solve_prepared(&c->prepared, &c->targets[c->next++ & 63], NULL, NULL, &c->pose, NULL);
    sink = (double)c->pose.elbow;
}

// A human arm (0.30 + 0.25) with 64 reachable targets (FK of random poses) cycled through, kind
// 0: pose targets, 1: position only; kind 2: pose targets along a smooth closed path (64 steps,
// the pole moving with it), as when an animation drives the limb.
static void make_limb_case(limb_case *c, int kind)
{
    int i, k;
    ik_joint j[3];
    ik_xform tip, goal;
    ik_chain chain;
    double amp[7], phase[7];
    c->limb.base = ik_xform_translation(ik_vec3_make(IK_R(0.2), 0, IK_R(1.4)));
    c->limb.upper_dir = c->limb.lower_dir = ik_vec3_make(1, 0, 0);
    c->limb.hinge_axis = ik_vec3_make(0, 0, 1);
    c->limb.upper_length = IK_R(0.30);
    c->limb.lower_length = IK_R(0.25);
    c->limb.swivel_ref = ik_vec3_make(0, 0, -1);
#if IK_VERSION_MAJOR > 0 || IK_VERSION_MINOR >= 12
    c->limb.limits = NULL;
#endif
    ik_limb_chain(&c->limb, j, &tip);
    chain = ik_chain_make(j, 3, tip);
    for (k = 0; k < 7; k++) {
        amp[k] = rnd(0.2, 1.0);
        phase[k] = rnd(0, 6.283185307179586);
    }
    for (i = 0; i < 64; i++) {
        double a = 6.283185307179586 * i / 64;
        for (k = 0; k < 7; k++)
            c->q[k] =
                (ik_real)(kind == 2 ? amp[k] * sin(a + phase[k]) + (k == 3) * 1.2 : rnd(-1.5, 1.5));
        ik_chain_fk(&chain, c->q, NULL, &goal);
        c->targets[i].pos = goal.pos;
        c->targets[i].rot = goal.rot;
        c->targets[i].use_rotation = kind != 1;
        c->targets[i].use_swivel = false;
        c->targets[i].pole = kind == 2 ? ik_vec3_make((ik_real)(0.5 + 0.2 * cos(a)),
                                                      (ik_real)(0.3 * sin(a)), IK_R(0.9))
                                       : ik_vec3_make((ik_real)rnd(-1, 1), (ik_real)rnd(-1, 1), 0);
        c->targets[i].swivel = 0;
    }
    for (k = 0; k < 7; k++)
        c->q[k] = 0;
    c->pose.shoulder = c->pose.wrist = ik_quat_identity();
    c->pose.elbow = 0;
    ik_limb_prepare(&c->limb, &c->prepared);
    c->next = 0;
}

typedef struct jac_case {
    ik_chain chain;
    ik_joint joints[ARM_MAX_JOINTS];
    ik_real q0[24], q[24];
    ik_target target;
    ik_jacobian_opts opts;
    unsigned char scratch[16384];
    int iterations;
} jac_case;

static void run_jac(void *arg)
{
    jac_case *c = (jac_case *)arg;
    ik_solve_info info;
    memcpy(c->q, c->q0, sizeof c->q);
    ik_jacobian_solve(&c->chain, &c->target, &c->opts, c->q, c->scratch, sizeof c->scratch, &info);
    c->iterations = info.iterations;
    sink = (double)c->q[0];
}

// A 7-DOF arm (KUKA iiwa-like axes and offsets, no rotated origins) with a full-pose target,
// 5 ball joints with a position target, or the Panda of bench/arms.h (modified DH: every origin
// rotated) with a full-pose target; start 0.1 rad from the answer.
static void make_jac_case(jac_case *c, int kind, ik_jacobian_method method)
{
    static const double off[7] = { 0.34, 0, 0.4, 0, 0.4, 0, 0.126 };
    bool balls = kind == 1;
    int i, n = balls ? 5 : 7, dof;
    ik_xform goal;
    for (i = 0; i < n; i++) {
        ik_xform origin =
            ik_xform_translation(ik_vec3_make(0, 0, (ik_real)(balls ? (i ? 1 : 0) : off[i])));
        c->joints[i] = balls ? ik_joint_ball(origin)
                             : ik_joint_revolute(origin, i % 2 ? ik_vec3_make(0, 1, 0)
                                                               : ik_vec3_make(0, 0, 1));
    }
    c->chain = ik_chain_make(c->joints, n,
                             ik_xform_translation(ik_vec3_make(0, 0, balls ? 1 : IK_R(0.126))));
    if (kind == 2) {
        static arm_def panda;
        arm_build(ARM_PANDA, &panda);
        for (i = 0; i < panda.chain.joint_count; i++)
            c->joints[i] = panda.joints[i];
        c->chain = ik_chain_make(c->joints, panda.chain.joint_count, panda.chain.tip);
    }
    dof = ik_chain_dof(&c->chain);
    for (i = 0; i < dof; i++) // (the Panda's within its limits: its targets are reachable)
        c->q[i] = kind == 2 ? (ik_real)rnd((double)c->joints[i].lo, (double)c->joints[i].hi)
                            : (ik_real)rnd(-1, 1);
    ik_chain_fk(&c->chain, c->q, NULL, &goal);
    c->target = balls ? ik_target_position(goal.pos) : ik_target_pose(goal);
    for (i = 0; i < dof; i++)
        c->q0[i] = c->q[i] + (ik_real)rnd(-0.1, 0.1);
    c->opts = ik_default_jacobian_opts();
    c->opts.method = method;
    c->opts.max_iterations = 10;
    c->opts.tolerance = 0; // run all 10 iterations
    c->opts.rotation_tolerance = 0;
    c->opts.min_improvement = 0;
}

typedef struct ccd_case {
    ik_chain chain;
    ik_joint joints[100];
    ik_real q0[300], q[300];
    ik_target target;
    ik_ccd_opts opts;
    unsigned char scratch[65536];
    unsigned char prepared[65536]; // the chain prepared (ccd_prepare())
    int dof;                       // of the chain: the values each run copies back to the start
    int sweeps;                    // sweeps done by the last solve
    bool no_info;                  // call with info NULL (then sweeps is not known)
    bool use_prepared;             // solve the prepared chain (ik_ccd_solve_prepared)
} ccd_case;

#if IK_VERSION_MAJOR == 0 && IK_VERSION_MINOR < 11
// Built against an ik.h before 0.11 (bench/instructions.sh compares with 0.9.0): the prepared
// chain's predecessor was ik_ccd_opts.keep_frames, the frames kept in scratch between calls.
#define ik_ccd_solve_prepared(prepared, target, q, scratch, size, info)                            \
    ik_ccd_solve(&c->chain, target, &c->opts, q, scratch, size, info)
#define ik_ccd_prepare(chain, opts, pose, prepared, size) ((opts)->keep_frames = true, IK_OK)
#endif

static void run_ccd(void *arg)
{
    ccd_case *c = (ccd_case *)arg;
    ik_solve_info info;
    memcpy(c->q, c->q0, (size_t)c->dof * sizeof c->q[0]);
    info.iterations = -1;
    if (c->use_prepared)
        ik_ccd_solve_prepared(c->prepared, &c->target, c->q, c->scratch, sizeof c->scratch,
                              c->no_info ? NULL : &info);
    else
        ik_ccd_solve(&c->chain, &c->target, &c->opts, c->q, c->scratch, sizeof c->scratch,
                     c->no_info ? NULL : &info);
    c->sweeps = info.iterations;
    sink = (double)c->q[0];
}

// n joints along z (alternating z and y hinges, or ball joints), unit links, a reachable target
// (FK of a random state), 10 sweeps from another random state.
static void make_ccd_case(ccd_case *c, int n, bool ball, bool full_pose)
{
    int i, dof;
    ik_xform goal;
    for (i = 0; i < n; i++) {
        ik_xform origin = ik_xform_translation(ik_vec3_make(0, 0, i ? 1 : 0));
        c->joints[i] =
            ball ? ik_joint_ball(origin)
                 : ik_joint_revolute(origin, i % 2 ? ik_vec3_make(0, 1, 0) : ik_vec3_make(0, 0, 1));
    }
    c->chain = ik_chain_make(c->joints, n, ik_xform_translation(ik_vec3_make(0, 0, 1)));
    c->dof = dof = ik_chain_dof(&c->chain);
    for (i = 0; i < dof; i++)
        c->q[i] = (ik_real)rnd(-1, 1);
    ik_chain_fk(&c->chain, c->q, NULL, &goal);
    c->target = full_pose ? ik_target_pose(goal) : ik_target_position(goal.pos);
    for (i = 0; i < dof; i++)
        c->q0[i] = (ik_real)rnd(-1, 1);
    c->opts = ik_default_ccd_opts();
    c->opts.max_sweeps = 10;
    c->opts.tolerance = 0;
    c->opts.rotation_tolerance = 0;
    c->opts.min_improvement = 0;
    c->no_info = false;
    c->use_prepared = false;
}

// The case's chain prepared with its options; its runs solve the prepared chain.
static void ccd_prepare(ccd_case *c)
{
    c->use_prepared = ik_ccd_prepare(&c->chain, &c->opts, c->target.use_rotation, c->prepared,
                                     sizeof c->prepared) == IK_OK;
}

// --ccd-split: the revolute position case of --ccd-calls (n joints) solved with 1, 2, 5, 10 and
// 20 sweeps, ns per joint per solve, and the line a + b sweeps through the 1- and 20-sweep times:
// a the work done once per solve, b a sweep (per joint).
static void ccd_split(void)
{
    static ccd_case cc;
    const int sizes[4] = { 3, 7, 20, 100 }, sweeps[5] = { 1, 2, 5, 10, 20 };
    int k, s;
    printf("| CCD, revolute position, ns per joint per solve | 1 | 2 | 5 | 10 | 20 sweeps | once "
           "per solve | per sweep |\n|---|---|---|---|---|---|---|---|\n");
    for (k = 0; k < 4; k++) {
        double t[5];
        rng_state = 1; // (the --ccd-calls case)
        make_ccd_case(&cc, sizes[k], false, false);
        printf("| n = %d |", sizes[k]);
        for (s = 0; s < 5; s++) {
            cc.opts.max_sweeps = sweeps[s];
            t[s] = median_ns(run_ccd, &cc, 4000 / (sizes[k] * sweeps[s]) + 1, 51) / sizes[k];
            printf(" %.1f%s |", t[s], cc.sweeps < sweeps[s] ? "*" : "");
        }
        printf(" %.1f | %.1f |\n", (20 * t[0] - t[4]) / 19, (t[4] - t[0]) / 19);
    }
    printf("(*: the solve ended before that many sweeps: the target was met exactly)\n");
}

static void make_case(chain_case *c, const char *kind, int n)
{
    int i, dof;
    for (i = 0; i < n; i++) {
        ik_xform origin = ik_xform_translation(ik_vec3_make(0, 0, i ? 1 : 0));
        if (strcmp(kind, "ball") == 0) {
            c->joints[i] = ik_joint_ball(origin);
        } else {
            ik_vec3 axis = i % 2 ? ik_vec3_make(0, 1, 0) : ik_vec3_make(0, 0, 1);
            c->joints[i] = ik_joint_revolute(origin, axis);
        }
    }
    c->chain = ik_chain_make(c->joints, n, ik_xform_translation(ik_vec3_make(0, 0, 1)));
    dof = ik_chain_dof(&c->chain);
    for (i = 0; i < dof; i++)
        c->q[i] = (ik_real)rnd(-1, 1);
    c->rows = 6;
    ik_chain_jacobian(&c->chain, c->q, 6, c->jac, NULL);
}

// --limits (and the default run's last tables): what rank deficiency costs the SVD, and what
// joints pinned at their limits cost a DLS iteration.
typedef struct svd_case {
    ik_real a[6 * 7], u[6 * 6], s[6], v[7 * 6];
    int n; // columns (6 rows)
} svd_case;

static void run_svd(void *arg)
{
    svd_case *c = (svd_case *)arg;
    ik_svd(c->a, 6, c->n, c->u, c->s, c->v);
    sink = (double)c->s[5];
}

// Dense 6 x 7 and 6 x 6 matrices (entries uniform in [-1, 1]) and the same with columns set to
// zero or scaled to 1e-300 (1e-30 in float), timed in turns. A wide matrix keeps its rank
// (6) with one such column and loses one with two; a square one loses one with one.
static void svd_table(int runs)
{
    static svd_case sc[8];
    static const int cols[8] = { 7, 7, 7, 7, 7, 6, 6, 6 }, changed[8] = { 0, 1, 1, 2, 2, 0, 1, 1 };
    static const bool zero[8] = { false, true, false, true, false, false, true, false };
    const ik_real tiny = (ik_real)(sizeof(ik_real) < sizeof(double) ? 1e-30 : 1e-300);
    const char *rows[8] = { "6 x 7, dense",
                            "6 x 7, column 3 zero",
                            "6 x 7, column 3 times tiny",
                            "6 x 7, columns 2, 3 zero (rank 5)",
                            "6 x 7, columns 2, 3 times tiny",
                            "6 x 6, dense",
                            "6 x 6, column 3 zero (rank 5)",
                            "6 x 6, column 3 times tiny" };
    bench_fn fn[8];
    double t[8];
    char title[64];
    int k, i, c;
    rng_state = 5;
    for (k = 0; k < 8; k++) {
        int dense = k < 5 ? 0 : 5; // (the same draws, then columns changed)
        sc[k].n = cols[k];
        fn[k] = run_svd;
        for (i = 0; i < 6 * cols[k]; i++)
            sc[k].a[i] = k == dense ? (ik_real)rnd(-1, 1) : sc[dense].a[i];
        for (c = 3; c > 3 - changed[k]; c--)
            for (i = 0; i < 6; i++)
                sc[k].a[i * cols[k] + c] *= zero[k] ? 0 : tiny;
    }
    median_ns_interleaved(fn, sc, sizeof sc[0], 8, 200, runs, t);
    snprintf(title, sizeof title, "SVD (ik_svd), tiny = %g", (double)tiny);
    printf("\n| %-33s |     ns | / dense of its shape |\n", title);
    printf("|-----------------------------------|--------|----------------------|\n");
    for (k = 0; k < 8; k++)
        printf("| %-33s | %6.0f | %20.2f |\n", rows[k], t[k], t[k] / t[k < 5 ? 0 : 5]);
}

// The pinned joints of each row: none, one, three. The 7-DOF arm: the elbow; the three y
// hinges. The leg: the knee; hip flexion, knee, ankle inversion.
static const int pin_sets[2][3][3] = { { { 0 }, { 3 }, { 1, 3, 5 } },
                                       { { 0 }, { 3 }, { 0, 3, 5 } } };
static const int pin_counts[3] = { 0, 1, 3 };
#define PIN_ITERATIONS 10

// Whether solves of 1 .. PIN_ITERATIONS iterations from c's start each run all their
// iterations, make progress in every one (the position or the rotation error falls) and end
// with exactly the pinned joints on a limit: the active set holds them in every iteration.
static bool pins_hold(jac_case *c, const int *pinned, int pins)
{
    double pos = HUGE_VAL, rot = HUGE_VAL;
    int k, i, p;
    for (k = 1; k <= PIN_ITERATIONS; k++) {
        ik_solve_info info;
        c->opts.max_iterations = k;
        memcpy(c->q, c->q0, sizeof c->q);
        if (ik_jacobian_solve(&c->chain, &c->target, &c->opts, c->q, c->scratch, sizeof c->scratch,
                              &info) != IK_OK ||
            info.iterations != k || info.status != IK_STATUS_MAX_ITERATIONS)
            return false;
        if (!((double)info.position_error < pos || (double)info.rotation_error < rot))
            return false;
        pos = (double)info.position_error, rot = (double)info.rotation_error;
        for (i = 0; i < c->chain.joint_count; i++) {
            bool on = c->q[i] == c->joints[i].lo || c->q[i] == c->joints[i].hi, want = false;
            for (p = 0; p < pins; p++)
                want = want || pinned[p] == i;
            if (on != want)
                return false;
        }
    }
    return true;
}

// The 7-DOF arm of the Jacobian tables (with the iiwa's limits: +-170 deg for the z hinges,
// +-120 for the y hinges, +-175 for the last) or the leg of bench/arms.h, row 0, 1 or 2 of
// pin_sets. The target: the pose of a state in the middle half of every free joint's range and
// 0.5 rad beyond a limit (a random side) for each pinned joint; the start: the pinned joints on
// that limit, the free ones up to 0.5 rad from the target's state (inside their limits). DLS
// with default damping, tolerances 0, steps of at most 0.02 rad: every iteration works toward
// the target and presses the pinned joints against their limits. The first draw that
// pins_hold() accepts; false if none of 100 does.
static bool make_pin_case(jac_case *c, int leg, int row)
{
    static const double iiwa_deg[7] = { 170, 120, 170, 120, 170, 120, 175 };
    const int *pinned = pin_sets[leg][row], pins = pin_counts[row];
    int attempt, i, p, n;
    if (leg) {
        static arm_def a;
        arm_build_leg(&a);
        memcpy(c->joints, a.joints, sizeof a.joints);
        c->chain = ik_chain_make(c->joints, a.chain.joint_count, a.chain.tip);
    } else {
        make_jac_case(c, 0, IK_JACOBIAN_DLS);
        for (i = 0; i < 7; i++)
            c->joints[i].hi =
                -(c->joints[i].lo = (ik_real)(-iiwa_deg[i] * 3.141592653589793 / 180));
    }
    n = c->chain.joint_count;
    c->opts = ik_default_jacobian_opts();
    c->opts.tolerance = c->opts.rotation_tolerance = c->opts.min_improvement = 0;
    c->opts.max_joint_step = IK_R(0.02);
    rng_state = 11;
    for (attempt = 0; attempt < 100; attempt++) {
        ik_real goal[ARM_MAX_JOINTS];
        ik_xform pose;
        for (i = 0; i < n; i++) {
            double lo = (double)c->joints[i].lo, hi = (double)c->joints[i].hi, span = hi - lo;
            double q0 =
                (double)(goal[i] = (ik_real)rnd(lo + span / 4, hi - span / 4)) + rnd(-0.5, 0.5);
            c->q0[i] = (ik_real)(q0 < lo + span / 8 ? lo + span / 8
                                                    : (q0 > hi - span / 8 ? hi - span / 8 : q0));
        }
        for (p = 0; p < pins; p++) {
            const ik_joint *j = &c->joints[pinned[p]];
            bool up = rnd(0, 1) < 0.5;
            c->q0[pinned[p]] = up ? j->hi : j->lo;
            goal[pinned[p]] = up ? j->hi + IK_R(0.5) : j->lo - IK_R(0.5);
        }
        ik_chain_fk(&c->chain, goal, NULL, &pose);
        c->target = ik_target_pose(pose);
        if (pins_hold(c, pinned, pins))
            return true;
    }
    return false;
}

// Per row: solves of PIN_ITERATIONS and of 1 iteration from the same start, timed in turns:
// (t(n) - t(1)) / (n - 1) is a further iteration, t(1) minus that the work done once per solve.
// False if a row found no case where its joints stay pinned.
static bool pin_table(int runs)
{
    static jac_case jc[2];
    const bench_fn fn[2] = { run_jac, run_jac };
    const char *names[2][3] = { { "none", "elbow", "the y hinges (2, 4, 6)" },
                                { "none", "knee", "hip flexion, knee, ankle inversion" } };
    int leg, row;
    bool all = true;
    printf("\n| DLS, pose, %d iterations of <= 0.02 rad | pinned joints                         "
           "| ns per iteration | / none | ns once per solve |\n",
           PIN_ITERATIONS);
    printf("|-----------------------------------------|---------------------------------------|"
           "------------------|--------|-------------------|\n");
    for (leg = 0; leg < 2; leg++) {
        double none = 0;
        for (row = 0; row < 3; row++) {
            double t[2], iter, t0;
            int inner;
            if (!make_pin_case(&jc[0], leg, row)) {
                printf("| %-39s | %-37s | no case found where they stay pinned |\n",
                       leg ? "leg (6 hinges)" : "7-DOF arm", names[leg][row]);
                all = false;
                continue;
            }
            jc[1] = jc[0];
            jc[0].opts.max_iterations = 1;
            jc[1].opts.max_iterations = PIN_ITERATIONS;
            t0 = now_ns();
            run_jac(&jc[1]);
            inner = (int)(100e3 / (now_ns() - t0 + 1)) + 1; // about 0.1 ms per timing
            median_ns_interleaved(fn, jc, sizeof jc[0], 2, inner < 50 ? inner : 50, runs, t);
            iter = (t[1] - t[0]) / (PIN_ITERATIONS - 1);
            none = row == 0 ? iter : none;
            printf("| %-39s | %d: %-34s | %16.0f | %6.1f | %17.0f |\n",
                   leg ? "leg (6 hinges)" : "7-DOF arm", pin_counts[row], names[leg][row], iter,
                   iter / none, t[0] - iter);
        }
    }
    printf("(once per solve: t(1) - a further iteration; where the first iteration costs more or "
           "less than the\nothers, e.g. SVDs of a varying number of sweeps, that difference is "
           "in it too)\n");
    return all;
}

// --damping-range: where DLS's adaptive damping acts (not a timing; docs/jacobian.md): 20,000
// random states within the limits of each arm of bench/arms.h, the Jacobian with its rotation
// rows times the solver's default orientation weight (the chain's length over its moving
// joints), and the share of states where the damping's measure is below eps^2 = (0.05 L)^2, by
// s_h^2 = 1 / sum 1/s_i^2 (ik.h since 0.9.0) and by s_min^2 (before); and the share that the
// normal equations' conditioning cut would send to the SVD in float (measure <= 1e4 FLT_EPSILON
// tr(A)), by each.
static void damping_range(void)
{
    static const arm_id ids[4] = { ARM_IIWA14, ARM_PANDA, ARM_HUMAN, ARM_UR5 };
    int a, t, i;
    printf(
        "| arm    | states | damped, s_h | damped, s_min | float SVD, s_h | float SVD, s_min |\n");
    printf(
        "|--------|--------|-------------|---------------|----------------|------------------|\n");
    for (a = 0; a < 4; a++) {
        static arm_def arm;
        const int n = 20000;
        int dof, moving = 0, damped_h = 0, damped_min = 0, cut_h = 0, cut_min = 0;
        double reach;
        arm_build(ids[a], &arm);
        dof = ik_chain_dof(&arm.chain);
        reach = (double)ik_vec3_length(arm.chain.tip.pos); // (as the solver's scale)
        for (i = 0; i < arm.chain.joint_count; i++) {
            reach += i > 0 ? (double)ik_vec3_length(arm.chain.joints[i].origin.pos) : 0;
            moving += arm.chain.joints[i].type != IK_JOINT_FIXED;
        }
        for (t = 0; t < n; t++) {
            ik_real q[ARM_MAX_JOINTS], jac[6 * ARM_MAX_JOINTS], u[36], s[6], v[6 * ARM_MAX_JOINTS];
            double inv = 0, tr = 0, smin2, sh2, eps2 = 0.0025 * reach * reach;
            int k, kk = dof < 6 ? dof : 6;
            for (i = 0; i < dof; i++)
                q[i] = (ik_real)rnd((double)arm.joints[i].lo, (double)arm.joints[i].hi);
            ik_chain_jacobian(&arm.chain, q, 6, jac, NULL);
            for (i = 3 * dof; i < 6 * dof; i++)
                jac[i] *= (ik_real)(reach / moving);
            ik_svd(jac, 6, dof, u, s, v);
            for (k = 0; k < kk; k++) {
                double s2 = (double)s[k] * (double)s[k];
                inv += s2 > 0 ? 1 / s2 : 1e300;
                tr += s2;
            }
            smin2 = (double)s[kk - 1] * (double)s[kk - 1];
            sh2 = 1 / inv;
            damped_h += sh2 < eps2, damped_min += smin2 < eps2;
            cut_h += !(sh2 > 1e4 * (double)FLT_EPSILON * tr),
                cut_min += !(smin2 > 1e4 * (double)FLT_EPSILON * tr);
        }
        printf("| %-6s | %6d | %10.1f%% | %12.1f%% | %13.1f%% | %15.1f%% |\n", arm.name, n,
               100.0 * damped_h / n, 100.0 * damped_min / n, 100.0 * cut_h / n,
               100.0 * cut_min / n);
    }
}

// --ccd-weights: how CCD's position weight affects convergence (not a timing): 100 random
// 7-revolute arms (random joint offsets and axes in [-1, 1]), full-pose targets made by FK of a
// random state, random starts, 2000 sweeps to 1e-9, for the default (Welman's alpha (1 + rho)
// with alpha = (n / W)^2) and fixed weights 1 / W^2, 1 / W and 1 (W the chain's length).
static void ccd_weights(void)
{
    const char *names[4] = { "default: (1 + rho) (n / W)^2", "fixed 1 / W^2", "fixed 1 / W",
                             "fixed 1" };
    int k, trial, i;
    printf("| CCD position weight (7-DOF pose, 100 far starts) | converged |\n");
    printf("|--------------------------------------------------|-----------|\n");
    for (k = 0; k < 4; k++) {
        int ok = 0;
        rng_state = 77;
        for (trial = 0; trial < 100; trial++) {
            static unsigned char scratch[1 << 14];
            ik_joint j[7];
            ik_real q[7], q0[7], w;
            ik_xform goal;
            ik_chain chain;
            ik_target t;
            ik_ccd_opts o = ik_default_ccd_opts();
            ik_solve_info info;
            for (i = 0; i < 7; i++) {
                ik_vec3 off, axis;
                double x = rnd(-1, 1), y = rnd(-1, 1), z = rnd(-1, 1);
                off = ik_vec3_make((ik_real)x, (ik_real)y, (ik_real)z);
                x = rnd(-1, 1), y = rnd(-1, 1), z = rnd(-1, 1);
                axis = ik_vec3_make((ik_real)x, (ik_real)y, (ik_real)z);
                j[i] = ik_joint_revolute(ik_xform_translation(off), axis);
            }
            chain = ik_chain_make(j, 7, ik_xform_translation(ik_vec3_make(IK_R(0.5), 0, 0)));
            for (i = 0; i < 7; i++)
                q[i] = (ik_real)rnd(-1.5, 1.5);
            for (i = 0; i < 7; i++)
                q0[i] = (ik_real)rnd(-1.5, 1.5);
            ik_chain_fk(&chain, q, NULL, &goal);
            t = ik_target_pose(goal);
            w = ik_vec3_length(chain.tip.pos); // W: the chain's length, as CCD measures it
            for (i = 1; i < 7; i++)
                w += ik_vec3_length(j[i].origin.pos);
            o.tolerance = IK_R(1e-9);
            o.rotation_tolerance = IK_R(1e-9);
            o.max_sweeps = 2000;
            o.position_weight = k == 0 ? -1 : k == 1 ? 1 / (w * w) : k == 2 ? 1 / w : 1;
            ik_ccd_solve(&chain, &t, &o, q0, scratch, sizeof scratch, &info);
            ok += info.status == IK_STATUS_CONVERGED;
        }
        printf("| %-48s | %5d/100 |\n", names[k], ok);
    }
}

// What the command line asks for: the tables (default), one of the other modes, and the number
// of runs behind each median.
typedef enum bench_mode {
    MODE_TABLES,
    MODE_CCD_WEIGHTS,
    MODE_CCD_SPLIT,
    MODE_DAMPING_RANGE,
    MODE_LIMITS,
    MODE_FURTHER,
    MODE_BALL_LIMITS,
    MODE_SKELETON,
    MODE_FABRIK,
    MODE_CLOSED,
    MODE_LIMB_CALLS,
    MODE_CCD_CALLS,
    MODE_JAC_CALLS,
    MODE_PIN_CALLS,
    MODE_CLOSED_CALLS,
    MODE_PATH_CALLS
} bench_mode;

typedef struct bench_args {
    bench_mode mode;
    int runs;  // --runs=N (default 101)
    int v[4];  // the numbers of --limb-calls, --ccd-calls or --jac-calls
    int given; // how many of them were given
} bench_args;

// The mode of a --limb-calls, --ccd-calls or --jac-calls argument with its numbers in a->v
// (a->given of them), or MODE_TABLES if s is none of these or malformed.
static bench_mode parse_calls(const char *s, bench_args *a)
{
    int *v = a->v;
    char end;
    a->given = sscanf(s, "--limb-calls=%d,%d,%d%c", v, v + 1, v + 2, &end);
    if (a->given == 3 && v[0] >= 0 && v[0] < 3 && v[1] >= 0 && v[1] < 3)
        return MODE_LIMB_CALLS;
    a->given = sscanf(s, "--ccd-calls=%d,%d,%d,%d", v, v + 1, v + 2, v + 3);
    if (a->given >= 2 && v[0] > 0 && v[0] <= 100)
        return MODE_CCD_CALLS;
    a->given = sscanf(s, "--jac-calls=%d,%d,%d,%d", v, v + 1, v + 2, v + 3);
    if (a->given >= 3 && v[0] >= 0 && v[0] < 4 && v[1] >= 0 && v[1] < 3)
        return MODE_JAC_CALLS;
    a->given = sscanf(s, "--pin-calls=%d,%d,%d,%d", v, v + 1, v + 2, v + 3);
    if (a->given >= 3 && v[0] >= 0 && v[0] < 2 && v[1] >= 0 && v[1] < 3)
        return MODE_PIN_CALLS;
    a->given = sscanf(s, "--closed-calls=%d,%d,%d%c", v, v + 1, v + 2, &end);
    if (a->given == 3 && v[0] >= 0 && v[0] < 3 && v[1] >= 0 && v[1] < 4 &&
        (v[1] < 3 || v[0] == 2) && v[2] >= 0)
        return MODE_CLOSED_CALLS;
    v[1] = 0;
    a->given = sscanf(s, "--path-calls=%d%c", v, &end);
    if (a->given == 2 && end == ',') // (R,P)
        a->given = sscanf(s, "--path-calls=%d,%d%c", v, v + 1, &end) - 1;
    if (a->given == 1 && v[0] >= 1 && v[1] >= 0 && v[1] <= 1)
        return MODE_PATH_CALLS;
    return MODE_TABLES;
}

// Reads every argument once; 0 (and a message) for an unknown or malformed one, or two modes.
static int parse_args(int argc, char **argv, bench_args *a)
{
    static const char *const flags[10] = {
        "",          "--ccd-weights", "--ccd-split", "--damping-range", "--limits",
        "--further", "--ball-limits", "--skeleton",  "--fabrik",        "--closed"
    };
    int i, f, runs;
    a->mode = MODE_TABLES;
    a->runs = 101;
    a->given = 0;
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        bench_mode mode = MODE_TABLES;
        char end;
        if (sscanf(s, "--runs=%d%c", &runs, &end) == 1 && runs > 0) {
            a->runs = runs;
            continue;
        }
#ifdef BENCH_CALLGRIND
        if (strncmp(s, "--instructions=", 15) == 0 && s[15] != '\0') {
            count_file = s + 15;
            continue;
        }
#endif
        for (f = 1; f < 10; f++)
            if (strcmp(s, flags[f]) == 0)
                mode = (bench_mode)f;
        if (mode == MODE_TABLES)
            mode = parse_calls(s, a);
        if (mode == MODE_TABLES || a->mode != MODE_TABLES) {
            fprintf(stderr, "bench: %s: %s\n", s,
                    mode == MODE_TABLES ? "unknown or malformed argument" : "one mode at a time");
            return 0;
        }
        a->mode = mode;
    }
    return 1;
}

// --limb-calls, --ccd-calls, --jac-calls: N calls of one case, no timing (for instruction counts
// with valgrind --tool=callgrind).
// --limb-calls=W,K,N: W 0 ik_limb_solve with q, 1 prepared with q, 2 prepared pose only; K 0
// random pose targets, 1 random positions, 2 a path.
// --ccd-calls=n,N[,S[,F]]: the CCD revolute position case with n joints (10 sweeps, or S; flags
// F: 1 info NULL, 2 the chain prepared once (ik_ccd_solve_prepared), 3 both).
// --jac-calls=m,k,N[,I]: method m (0 DLS .. 3 transpose) on case k (0 7-DOF arm, 1 balls, 2
// Panda), 10 iterations (or I: an iteration's count is I minus I - 1).
// --pin-calls=L,R,N[,I]: the --limits table's DLS case on chain L (0 the 7-DOF arm, 1 the leg)
// with row R's pinned joints (0 none, 1 one, 2 three), PIN_ITERATIONS iterations (or I).
static void calls(const bench_args *a)
{
    const int *v = a->v;
    int n = a->mode == MODE_CCD_CALLS ? v[1] : v[2];
    if (a->mode == MODE_LIMB_CALLS) {
        static limb_case lc;
        bench_fn fn[3] = { run_limb, run_limb_prepared, run_limb_pose };
        make_limb_case(&lc, v[1]);
        while (n-- > 0)
            fn[v[0]](&lc);
    } else if (a->mode == MODE_CCD_CALLS) {
        static ccd_case cc;
        make_ccd_case(&cc, v[0], false, false);
        if (a->given >= 3 && v[2] > 0)
            cc.opts.max_sweeps = v[2];
        cc.no_info = a->given == 4 && (v[3] & 1) != 0;
        if (a->given == 4 && (v[3] & 2) != 0)
            ccd_prepare(&cc);
        while (n-- > 0)
            run_ccd(&cc);
    } else if (a->mode == MODE_PIN_CALLS) {
        static jac_case pc;
        if (!make_pin_case(&pc, v[0], v[1]))
            return;
        pc.opts.max_iterations = a->given == 4 && v[3] > 0 ? v[3] : PIN_ITERATIONS;
        while (n-- > 0)
            run_jac(&pc);
    } else {
        static jac_case jc;
        make_jac_case(&jc, v[1], (ik_jacobian_method)v[0]);
        if (a->given == 4 && v[3] > 0)
            jc.opts.max_iterations = v[3];
        while (n-- > 0)
            run_jac(&jc);
    }
}

// --further: a further iteration of a default DLS or PINV solve, averaged over 100 random starts
// of each case of the Jacobian tables (their one start may sit at a joint limit or in the
// adaptive damping's range): (t(n) - t(1)) summed over the starts, divided by the further
// iterations. One timing per start: meant for --instructions (bench/instructions.sh --further).
static void further_table(void)
{
    static jac_case jc;
    const char *names[3] = { "7-DOF arm, pose", "5 ball joints, position", "Panda (DH), pose" };
    int meth, kind, seed;
    printf("| a further iteration, 100 starts | case                    | ns per iteration |\n");
    printf("|---------------------------------|-------------------------|------------------|\n");
    for (meth = 0; meth < 2; meth++)
        for (kind = 0; kind < 3; kind++) {
            double sum = 0;
            int further = 0;
            for (seed = 1; seed <= 100; seed++) {
                double t0, tn, t1;
                rng_state = (unsigned long long)seed;
                make_jac_case(&jc, kind, (ik_jacobian_method)meth);
                jc.opts = ik_default_jacobian_opts();
                jc.opts.method = (ik_jacobian_method)meth;
                t0 = clock_start();
                run_jac(&jc);
                tn = clock_stop(t0);
                if (jc.iterations < 2)
                    continue;
                further += jc.iterations - 1;
                jc.opts.max_iterations = 1;
                t0 = clock_start();
                run_jac(&jc);
                t1 = clock_stop(t0);
                sum += tn - t1;
            }
            printf("| %-31s | %-23s | %16.0f |\n", meth ? "PINV" : "DLS", names[kind],
                   further > 0 ? sum / further : 0);
        }
}

// The first line: the version, the type, how the figures were taken.
static void print_title(int runs, const char *end)
{
    printf("ik.h %s, ik_real = %s, ", IK_VERSION_STRING, IK_REAL_FMT);
    if (count_file)
        printf("INSTRUCTIONS (callgrind) in place of every ns figure%s", end);
    else
        printf("median of %d runs%s", runs, end);
}

#if IK_VERSION_MAJOR > 0 || IK_VERSION_MINOR >= 12 // (ball-joint limits: 0.12.0)
// Ball-joint limits: 1024 random rotations against a cone of 1.2 x 0.6 rad (or 1.2 x 1.2) and
// twist -0.8..0.5.
typedef struct limit_case {
    ik_ball_limit limit;
    ik_quat r[1024];
    unsigned next;
} limit_case;

static void run_limit_contains(void *arg)
{
    limit_case *c = (limit_case *)arg;
    sink = (double)ik_ball_limit_contains(&c->limit, c->r[c->next++ & 1023]);
}

static void run_limit_project(void *arg)
{
    limit_case *c = (limit_case *)arg;
    sink = (double)ik_ball_limit_project(&c->limit, c->r[c->next++ & 1023]).x;
}

// The limit's cost per call: random rotations (98% outside, 90% outside the cone), rotations
// within, and rotations near the boundary as a solver's moves leave them (a rotation within, on
// the boundary for most, turned by up to 0.05 rad about each axis: 70% outside).
static void limit_table(int runs)
{
    static limit_case c[4];
    const char *rows[4] = { "random rotations", "rotations within",
                            "random rotations, circular cone", "near the boundary (solver moves)" };
    int k, i;
    for (k = 0; k < 4; k++) { // (the third: a cone of 1.2 rad each way)
        ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_R(1.2),
                           k == 2 ? IK_R(1.2) : IK_R(0.6), IK_R(-0.8), IK_R(0.5), &c[k].limit);
        for (i = 0; i < 1024; i++) {
            ik_vec3 v = ik_vec3_make((ik_real)rnd(-3, 3), (ik_real)rnd(-3, 3), (ik_real)rnd(-3, 3));
            ik_vec3 d = ik_vec3_make((ik_real)rnd(-0.05, 0.05), (ik_real)rnd(-0.05, 0.05),
                                     (ik_real)rnd(-0.05, 0.05));
            ik_quat r = ik_quat_from_expmap(v);
            c[k].r[i] = k == 0 || k == 2 ? r : ik_ball_limit_project(&c[k].limit, r);
            if (k == 3)
                c[k].r[i] = ik_quat_mul(ik_quat_from_expmap(d), c[k].r[i]);
        }
    }
    printf("\n| ball-joint limit, ns per call      | contains | project |\n");
    printf("|-----------------------------------|----------|---------|\n");
    for (k = 0; k < 4; k++)
        printf("| %-33s | %8.1f | %7.1f |\n", rows[k],
               median_ns(run_limit_contains, &c[k], 1000, runs),
               median_ns(run_limit_project, &c[k], 1000, runs));
}

// Ball-joint limits in the solvers: 7 ball joints along z (unit links, a position target), each
// limited to a cone of 0.6 x 0.4 rad and twist -0.5..0.5 rad, against the same chain with the
// limits taken off (the same target and start). The target comes from a state within the limits
// with about half the joints on their boundary (random rotations projected onto the limit); the
// start is a random state within the limits (CCD) or 0.1 rad from the target's state (DLS).
static ik_ball_limit ball_chain_limit, ball_chain_inner; // (inner: 1e-6 inside, for the share)

// A random state within the limits (its joints' exponential maps in q), about half of them on
// the boundary.
static void ball_chain_state(ik_real *q)
{
    int i;
    for (i = 0; i < 7; i++) {
        double s = rnd(0, 1) < 0.5 ? 1.5 : 0.3; // (wide: mostly projected onto the boundary)
        ik_vec3 v = ik_vec3_make((ik_real)rnd(-s, s), (ik_real)rnd(-s, s), (ik_real)rnd(-s, s));
        v = ik_quat_to_expmap(ik_ball_limit_project(&ball_chain_limit, ik_quat_from_expmap(v)));
        q[3 * i] = v.x;
        q[3 * i + 1] = v.y;
        q[3 * i + 2] = v.z;
    }
}

// Joints of state q on their limit's boundary (outside the limit 1e-6 rad inside it).
static int ball_chain_on_boundary(const ik_real *q)
{
    int i, on = 0;
    for (i = 0; i < 7; i++)
        on += !ik_ball_limit_contains(
            &ball_chain_inner,
            ik_quat_from_expmap(ik_vec3_make(q[3 * i], q[3 * i + 1], q[3 * i + 2])));
    return on;
}

// The chain of joints (7 balls) with the limit on every joint or on none.
static ik_chain ball_chain(ik_joint *joints, bool limited)
{
    int i;
    for (i = 0; i < 7; i++) {
        joints[i] = ik_joint_ball(ik_xform_translation(ik_vec3_make(0, 0, i ? 1 : 0)));
        joints[i].limit = limited ? &ball_chain_limit : NULL;
    }
    return ik_chain_make(joints, 7, ik_xform_translation(ik_vec3_make(0, 0, 1)));
}

// Sums over cases ([1] limited): CCD's t(20 sweeps) - t(10 sweeps) and the joint-sweeps between;
// DLS's t(n) - t(1) and n - 1, n <= 20 the iterations done at tolerance 0; the joints on their
// boundary at the end of the limited solves (CCD, DLS).
typedef struct ball_chain_sums {
    double ccd[2], dls[2];
    int joint_sweeps[2], further[2], on[2];
} ball_chain_sums;

// One case of the table below, from the random state: adds its figures to *sum.
static void ball_chain_case(int runs, ball_chain_sums *sum)
{
    static ccd_case cc;
    static jac_case jc;
    ik_real goal_q[21], ccd_q0[21], jac_q0[21];
    ik_target target;
    ik_xform goal;
    int k;
    ball_chain_state(goal_q);
    ball_chain_state(ccd_q0);
    for (k = 0; k < 21; k++) // (DLS: up to 0.1 rad from the goal's state)
        jac_q0[k] = goal_q[k] + (ik_real)rnd(-0.06, 0.06);
    for (k = 0; k < 2; k++) { // (k = 1: limited)
        double t1, tn;
        int s10;
        make_ccd_case(&cc, 7, true, false);
        cc.chain = ball_chain(cc.joints, k == 1);
        ik_chain_fk(&cc.chain, goal_q, NULL, &goal);
        cc.target = target = ik_target_position(goal.pos);
        memcpy(cc.q0, ccd_q0, sizeof ccd_q0);
        t1 = median_ns(run_ccd, &cc, 20, runs);
        s10 = cc.sweeps;
        cc.opts.max_sweeps = 20;
        tn = median_ns(run_ccd, &cc, 10, runs);
        sum->ccd[k] += tn - t1;
        sum->joint_sweeps[k] += 7 * (cc.sweeps - s10);
        sum->on[0] += k == 1 ? ball_chain_on_boundary(cc.q) : 0;
        make_jac_case(&jc, 1, IK_JACOBIAN_DLS);
        jc.chain = ball_chain(jc.joints, k == 1);
        jc.target = target;
        memcpy(jc.q0, jac_q0, sizeof jac_q0);
        jc.opts.max_iterations = 20;
        tn = median_ns(run_jac, &jc, 10, runs);
        sum->further[k] += jc.iterations - 1;
        sum->on[1] += k == 1 ? ball_chain_on_boundary(jc.q) : 0;
        jc.opts.max_iterations = 1;
        t1 = median_ns(run_jac, &jc, 20, runs);
        sum->dls[k] += tn - t1;
    }
}

// The marginal cost of a CCD sweep per joint and of a further DLS iteration, limited and not,
// summed over 5 cases (seeds 1 to 5; the random state is put back).
static void ball_chain_table(int runs)
{
    ball_chain_sums sum = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    unsigned long long saved = rng_state;
    double ccd[2], dls[2];
    int k;
    ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_R(0.6), IK_R(0.4),
                       IK_R(-0.5), IK_R(0.5), &ball_chain_limit);
    ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_R(0.6 - 1e-6),
                       IK_R(0.4 - 1e-6), IK_R(-0.5 + 1e-6), IK_R(0.5 - 1e-6), &ball_chain_inner);
    for (k = 1; k <= 5; k++) {
        rng_state = (unsigned long long)k;
        ball_chain_case(runs, &sum);
    }
    rng_state = saved;
    for (k = 0; k < 2; k++) {
        ccd[k] = sum.joint_sweeps[k] > 0 ? sum.ccd[k] / sum.joint_sweeps[k] : -1;
        dls[k] = sum.further[k] > 0 ? sum.dls[k] / sum.further[k] : -1;
    }
    printf("\n| 7 ball joints, position target, 5 cases | unlimited | limited (/ unlimited) | "
           "limited: joints on their boundary |\n");
    printf("|-----------------------------------------|-----------|-----------------------|------"
           "-----------------------------|\n");
    printf("| CCD sweep, per joint: (20 - 10 sweeps)  | %9.1f | %13.1f (%5.2f) | %2d of 35%25s |\n",
           ccd[0], ccd[1], ccd[1] / ccd[0], sum.on[0], "");
    printf("| DLS iteration: (t(n) - t(1)) / (n - 1)  | %4.0f (%2d) | %8.0f (%2d) (%5.2f) | %2d of "
           "35%25s |\n",
           dls[0], sum.further[0], dls[1], sum.further[1], dls[1] / dls[0], sum.on[1], "");
}
#else
static void limit_table(int runs)
{
    (void)runs;
}

static void ball_chain_table(int runs)
{
    (void)runs;
}
#endif

#ifdef IK_MAX_EFFECTORS // (skeletons)
#include "humanoid.h"
#include "skeleton_cases.h"

#define SKEL_MAX_DOF (3 * SKC_MAX_JOINTS)

// A skeleton solve of the --skeleton tables: its skeleton, effectors, start and options.
typedef struct skel_case {
    ik_joint joints[SKC_MAX_JOINTS];
    int parents[SKC_MAX_JOINTS];
    ik_skeleton skeleton;
    ik_effector effectors[8];
    int count, dof;
    ik_real q0[SKEL_MAX_DOF], q[SKEL_MAX_DOF];
    ik_jacobian_opts opts;
    unsigned char *scratch;
    size_t size;
    int iterations; // done by the last solve
} skel_case;

static void run_skel(void *arg)
{
    skel_case *c = (skel_case *)arg;
    ik_solve_info info;
    memcpy(c->q, c->q0, (size_t)c->dof * sizeof c->q[0]);
    info.iterations = -1;
    ik_skeleton_solve(&c->skeleton, c->effectors, c->count, &c->opts, c->q, c->scratch, c->size,
                      &info, NULL);
    c->iterations = info.iterations;
    sink = (double)c->q[0];
}

// The case's skeleton made from its arrays, its state length and scratch (allocated here).
static void skel_case_finish(skel_case *c, int joint_count)
{
    c->skeleton = ik_skeleton_make(c->joints, c->parents, joint_count);
    c->dof = ik_skeleton_dof(&c->skeleton);
    free(c->scratch);
    c->size = skc_scratch_size(&c->skeleton, c->count);
    c->scratch = (unsigned char *)malloc(c->size);
}

// n joints as a trunk of n / 5 joints and four branches of the rest from its end (every third
// joint a ball, the others hinges about random axes; bones 0.1 to 0.3 m in random directions,
// no limits), a position effector 0.1 m beyond each branch's last joint, each target the FK of
// a random state; the start another random state, 10 DLS iterations at tolerance 0.
static void make_branched_case(skel_case *c, int n)
{
    int trunk = n / 5, branch = (n - trunk) / 4, i, b;
    unsigned long long draw;
    for (i = 0; i < n; i++) {
        ik_vec3 dir = ik_vec3_normalize(
            ik_vec3_make((ik_real)rnd(-1, 1), (ik_real)rnd(-1, 1), (ik_real)rnd(0.2, 1)));
        ik_vec3 axis = ik_vec3_make((ik_real)rnd(-1, 1), (ik_real)rnd(-1, 1), (ik_real)rnd(-1, 1));
        ik_xform origin = ik_xform_translation(ik_vec3_scale(dir, (ik_real)rnd(0.1, 0.3)));
        c->joints[i] = i % 3 == 2 ? ik_joint_ball(origin) : ik_joint_revolute(origin, axis);
        c->parents[i] = i - 1;
    }
    for (b = 0; b < 4; b++) { // (branch b: joints trunk + b * branch .. , the last one the rest)
        int first = trunk + b * branch, last = b == 3 ? n - 1 : first + branch - 1;
        c->parents[first] = trunk - 1;
        c->effectors[b] =
            ik_effector_make(last, ik_xform_translation(ik_vec3_make(0, 0, IK_R(0.1))),
                             IK_EFFECTOR_POSITION, ik_vec3_make(0, 0, 0));
    }
    c->count = 4;
    skel_case_finish(c, n);
    draw = rng_state;
    skc_random_state(&c->skeleton, &draw, 0.5, c->q);
    skc_targets_at(&c->skeleton, c->q, c->effectors, c->count);
    skc_random_state(&c->skeleton, &draw, 0.5, c->q0);
    rng_state = draw;
    c->opts = ik_default_jacobian_opts();
    c->opts.max_iterations = 10;
    c->opts.tolerance = c->opts.rotation_tolerance = c->opts.min_improvement = 0;
}

// Cost against the joint count, 4 position effectors on branched chains of 20 to 200 joints:
// solves of 10 and of 1 DLS iteration from the same start, timed in turns, averaged over 3
// cases (seeds 1 to 3): (t(10) - t(1)) / 9 is a further iteration, t(1) minus that the work done
// once per solve.
static void skeleton_size_table(int runs)
{
    static skel_case sc[2];
    const bench_fn fn[2] = { run_skel, run_skel };
    static const int sizes[4] = { 20, 50, 100, 200 };
    double iter[4], once[4];
    int dof[4], full[4], k, seed;
    unsigned long long saved = rng_state;
    for (k = 0; k < 4; k++) {
        iter[k] = once[k] = 0;
        full[k] = 1;
        for (seed = 1; seed <= 3; seed++) {
            double t[2];
            rng_state = (unsigned long long)seed;
            make_branched_case(&sc[0], sizes[k]);
            sc[1] = sc[0];
            sc[1].scratch = (unsigned char *)malloc(sc[0].size);
            sc[0].opts.max_iterations = 1;
            median_ns_interleaved(fn, sc, sizeof sc[0], 2, 5, runs, t);
            full[k] = full[k] && sc[1].iterations == 10;
            iter[k] += (t[1] - t[0]) / 9 / 3;
            once[k] += (t[0] - (t[1] - t[0]) / 9) / 3;
            free(sc[1].scratch);
            sc[1].scratch = NULL;
        }
        dof[k] = sc[0].dof;
    }
    rng_state = saved;
    printf("\n| skeleton, 4 position effectors, DLS, ns (3 cases) | n = 20 | n = 50 | n = 100 | "
           "n = 200 |\n");
    printf("|---------------------------------------------------|--------|--------|---------|---"
           "------|\n");
    printf("| state values (dof)                                | %6d | %6d | %7d | %7d |\n",
           dof[0], dof[1], dof[2], dof[3]);
    printf(
        "| a further iteration: (t(10) - t(1)) / 9%s         | %6.0f | %6.0f | %7.0f | %7.0f |\n",
        full[0] && full[1] && full[2] && full[3] ? "  " : " *", iter[0], iter[1], iter[2], iter[3]);
    printf(
        "| a further iteration, per joint                    | %6.1f | %6.1f | %7.1f | %7.1f |\n",
        iter[0] / 20, iter[1] / 50, iter[2] / 100, iter[3] / 200);
    printf(
        "| once per solve: t(1) - a further iteration        | %6.0f | %6.0f | %7.0f | %7.0f |\n",
        once[0], once[1], once[2], once[3]);
    if (!(full[0] && full[1] && full[2] && full[3]))
        printf("(*: a 10-iteration solve ended early)\n");
}

// ---- the humanoid (bench/humanoid.h) with its 5 effectors: feet and hands full poses (feet
// priority 0), the head aiming at a point
#define SKEL_FRAMES    1000
#define SKEL_KEY_EVERY 100 // frames between the path's key states

static humanoid skel_body; // (built once; its skeleton points into it)

// A figure in us from ns (instructions, with --instructions, stay as they are).
static double skel_us(double ns)
{
    return count_file ? ns : ns / 1000;
}

// The body's standard effectors with their targets where they are at state q.
static void skel_body_effectors(const ik_real *q, ik_effector *e)
{
    ik_xform none[2] = { ik_xform_identity(), ik_xform_identity() };
    humanoid_effectors(&skel_body, none, none, ik_vec3_make(0, 0, 1), e);
    skc_targets_at(&skel_body.skeleton, q, e, HUMANOID_EFFECTORS);
}

// A smooth path of targets: the effectors' poses along a path of states within the limits (key
// states every SKEL_KEY_EVERY frames, the rest state moved by up to 0.4 rad (m) in every value;
// between them each value eased by (1 - cos) / 2, balls moved into their limits), solved frame
// after frame from the last frame's answer.
// Prepared skeletons (0.16.0); built against an earlier ik.h (bench/instructions.sh --base), the
// prepared row solves by ik_skeleton_solve().
#if IK_VERSION_MAJOR > 0 || IK_VERSION_MINOR >= 16
#define SKEL_PREPARED 1
#else
#define SKEL_PREPARED 0
#endif

typedef struct skel_path {
    ik_effector effectors[SKEL_FRAMES][HUMANOID_EFFECTORS];
    ik_real rest[HUMANOID_DOF], q[HUMANOID_DOF];
    ik_jacobian_opts opts;
    unsigned char *scratch;
    size_t size;
    void *prepared;    // the skeleton prepared for the path's effectors (ik_skeleton_prepare())
    bool use_prepared; // solved by ik_skeleton_solve_prepared(), else ik_skeleton_solve()
    long iterations;   // over the last run
} skel_path;

static void make_skel_path(skel_path *p)
{
    ik_real key[2][HUMANOID_DOF], q[HUMANOID_DOF];
    unsigned long long draw = 7;
    size_t prepared;
    int f, k, i;
    humanoid_rest(&skel_body, p->rest);
    memcpy(key[1], p->rest, sizeof key[1]);
    for (f = 0; f < SKEL_FRAMES; f++) {
        double s = (double)(f % SKEL_KEY_EVERY) / SKEL_KEY_EVERY,
               ease = (1 - cos(3.141592653589793 * s)) / 2;
        if (f % SKEL_KEY_EVERY == 0) { // (the next key state)
            memcpy(key[0], key[1], sizeof key[0]);
            memcpy(key[1], p->rest, sizeof key[1]);
            skc_perturb(&skel_body.skeleton, &draw, 0.4, key[1]);
        }
        for (i = 0; i < HUMANOID_DOF; i++)
            q[i] = (ik_real)((double)key[0][i] + ease * (double)(key[1][i] - key[0][i]));
        for (k = 0; k < HUMANOID_JOINTS; k++) {
            int at = ik_skeleton_state_index(&skel_body.skeleton, k);
            if (skel_body.joints[k].type == IK_JOINT_BALL) {
                ik_vec3 v = skc_ball_within(&skel_body.joints[k],
                                            ik_vec3_make(q[at], q[at + 1], q[at + 2]));
                q[at] = v.x, q[at + 1] = v.y, q[at + 2] = v.z;
            }
        }
        skel_body_effectors(q, p->effectors[f]);
    }
    p->opts = ik_default_jacobian_opts();
    p->size = skc_scratch_size(&skel_body.skeleton, HUMANOID_EFFECTORS);
    p->scratch = (unsigned char *)malloc(p->size);
    p->use_prepared = false;
#if SKEL_PREPARED
    prepared = ik_skeleton_prepared_size(&skel_body.skeleton, p->effectors[0], HUMANOID_EFFECTORS);
    p->prepared = malloc(prepared);
    if (ik_skeleton_prepare(&skel_body.skeleton, p->effectors[0], HUMANOID_EFFECTORS, p->prepared,
                            prepared) != IK_OK)
        abort(); // (every frame's effectors have the first's layout)
#else
    (void)prepared;
    p->prepared = NULL;
#endif
}

// One solve of frame f from p->q.
static void skel_path_frame(skel_path *p, int f)
{
    ik_solve_info info;
#if SKEL_PREPARED
    if (p->use_prepared)
        ik_skeleton_solve_prepared(p->prepared, p->effectors[f], HUMANOID_EFFECTORS, &p->opts, p->q,
                                   p->scratch, p->size, &info, NULL);
    else
#endif
        ik_skeleton_solve(&skel_body.skeleton, p->effectors[f], HUMANOID_EFFECTORS, &p->opts, p->q,
                          p->scratch, p->size, &info, NULL);
    p->iterations += info.iterations;
}

static void run_skel_path(void *arg)
{
    skel_path *p = (skel_path *)arg;
    int f;
    memcpy(p->q, p->rest, sizeof p->q);
    p->iterations = 0;
    for (f = 0; f < SKEL_FRAMES; f++)
        skel_path_frame(p, f);
    sink = (double)p->q[0];
}

// The path's frames again, checked: those with every effector within 1e-4 m and 1e-3 rad, with
// every limit held; the largest change of a value between frames.
static void skel_path_check(skel_path *p, int *met, int *held, double *jump)
{
    ik_real last[HUMANOID_DOF];
    int f, i;
    *met = *held = 0;
    *jump = 0;
    p->iterations = 0; // (counted again here: the timed runs' count is not this run's)
    memcpy(p->q, p->rest, sizeof p->q);
    for (f = 0; f < SKEL_FRAMES; f++) {
        memcpy(last, p->q, sizeof last);
        skel_path_frame(p, f);
        *met += skc_met(&skel_body.skeleton, p->q, p->effectors[f], HUMANOID_EFFECTORS, 1e-4, 1e-3);
        *held += humanoid_limit_broken(&skel_body, p->q) < 0;
        for (i = 0; i < HUMANOID_DOF; i++)
            *jump = fabs((double)(p->q[i] - last[i])) > *jump ? fabs((double)(p->q[i] - last[i]))
                                                              : *jump;
    }
}

// The humanoid warm-started along the path: us per frame (the median of runs of the whole
// path), iterations per frame, frames met and within the limits; at the frame's accuracy as
// tolerances (1e-4 m, 1e-3 rad) and at the default tolerances, with the standing pose as the rest
// pose (as a game would: the redundant joints stay near it), and without one (they drift); the
// first row's again with the skeleton prepared once (ik_skeleton_solve_prepared()).
static void skeleton_path_table(int runs)
{
    static skel_path p;
    const char *rows[4] = { "tolerances 1e-4 m, 1e-3 rad, rest pose",
                            "default tolerances (1e-9), rest pose",
                            "tolerances 1e-4 m, 1e-3 rad, no rest pose",
                            "the first row's, prepared" };
    int k;
    make_skel_path(&p);
    printf("\n| humanoid, 5 effectors, %d frames along a path, DLS | us per frame | iterations per "
           "frame | frames within 1e-4 m, 1e-3 rad | frames within the limits | largest change "
           "between frames |\n",
           SKEL_FRAMES);
    printf("|------------------------------------------------------|--------------|--------------"
           "--"
           "------|--------------------------------|--------------------------|--------------------"
           "-----------|\n");
    for (k = 0; k < 4; k++) {
        double t, jump;
        int met, held;
        p.opts = ik_default_jacobian_opts();
        if (k != 1) {
            p.opts.tolerance = IK_R(1e-4);
            p.opts.rotation_tolerance = IK_R(1e-3);
        }
        p.opts.rest = k != 2 ? p.rest : NULL; // (the standing pose pulled toward in the null space)
        p.use_prepared = k == 3;
        t = median_ns(run_skel_path, &p, 1, runs) / SKEL_FRAMES;
        skel_path_check(&p, &met, &held, &jump);
        printf("| %-52s | %12.2f | %20.2f | %23d / %d | %17d / %d | %25.3f rad |\n", rows[k],
               skel_us(t), (double)p.iterations / SKEL_FRAMES, met, SKEL_FRAMES, held, SKEL_FRAMES,
               jump);
    }
    free(p.scratch);
    free(p.prepared);
}

// --path-calls=R[,P]: R runs of the humanoid path as the first row of the path table has them
// (tolerances 1e-4 m, 1e-3 rad, the rest pose), nothing timed; P 1: by ik_skeleton_solve_prepared()
// (its last row). Under valgrind --tool=callgrind --toggle-collect=ik_skeleton_solve (or
// ik_skeleton_solve_prepared), instructions / (1000 R) a frame, and the parts' inclusive counts
// (docs/skeletons.md, "Cost").
static void path_calls(const int *v)
{
    static skel_path p;
    int r;
    humanoid_build(&skel_body);
    make_skel_path(&p);
    p.opts.tolerance = IK_R(1e-4);
    p.opts.rotation_tolerance = IK_R(1e-3);
    p.opts.rest = p.rest;
    p.use_prepared = v[1] == 1;
    for (r = 0; r < v[0]; r++)
        run_skel_path(&p);
    printf("%d runs of %d frames%s: %ld iterations in the last\n", v[0], SKEL_FRAMES,
           p.use_prepared ? ", prepared" : "", p.iterations);
    free(p.scratch);
    free(p.prepared);
}

// Random reachable targets: problem i's targets are the effectors' poses at a random state
// within the limits (seed i + 1); solved to 1e-5 (m and rad) from a start near that state (every
// value moved by up to 0.1, into the limits) or from random states within the limits (seeds
// 1000003 i + 1, ...), a new one after each solve that misses, until 5 ms have passed. Each
// attempt from a random state is a probe, as ik_arm_solve()'s: SKEL_PROBE_ITERATIONS, then, if
// every effector is within SKEL_PROBE_ERROR m, SKEL_ATTEMPT_ITERATIONS more from there; an attempt
// still farther is replaced (of 1000 problems, 1000 solved within 240 iterations this way, 995 with
// attempts of 20 iterations).
#ifndef SKEL_PROBE_ITERATIONS
#define SKEL_PROBE_ITERATIONS 12
#endif
#ifndef SKEL_PROBE_ERROR
#define SKEL_PROBE_ERROR 0.05
#endif
#ifndef SKEL_ATTEMPT_ITERATIONS
#define SKEL_ATTEMPT_ITERATIONS 30
#endif
typedef struct skel_problems {
    int solved, attempts, problems;
    double *ns; // [problems]: each problem's time
    double mean;
} skel_problems;

// Solves problem i (near: from its near start; else from random starts within 5 ms); whether
// every effector is within 1e-5 of its target (measured here).
static bool skel_problem(int i, bool near, const ik_jacobian_opts *opts, void *scratch, size_t size,
                         int *attempts)
{
    const ik_skeleton *s = &skel_body.skeleton;
    ik_effector e[HUMANOID_EFFECTORS];
    ik_real q[HUMANOID_DOF];
    unsigned long long draw = (unsigned long long)i + 1, restarts = 1000003ull * (unsigned)i + 1;
    double t0 = now_ns();
    bool met = false;
    skc_random_state(s, &draw, 0.5, q);
    skel_body_effectors(q, e);
    if (near)
        skc_perturb(s, &draw, 0.1, q);
    do {
        ik_jacobian_opts o = *opts;
        ik_solve_info info;
        if (!near)
            skc_random_state(s, &restarts, 0.5, q);
        o.max_iterations = near ? o.max_iterations : SKEL_PROBE_ITERATIONS;
        ik_skeleton_solve(s, e, HUMANOID_EFFECTORS, &o, q, scratch, size, &info, NULL);
        met = skc_met(s, q, e, HUMANOID_EFFECTORS, 1e-5, 1e-5);
        if (!near && !met && (double)info.position_error < SKEL_PROBE_ERROR) { // (the probe)
            o.max_iterations = SKEL_ATTEMPT_ITERATIONS;
            ik_skeleton_solve(s, e, HUMANOID_EFFECTORS, &o, q, scratch, size, &info, NULL);
            met = skc_met(s, q, e, HUMANOID_EFFECTORS, 1e-5, 1e-5);
        }
        ++*attempts;
    } while (!near && !met && now_ns() - t0 < 5e6);
    return met;
}

static void skel_problems_run(skel_problems *r, bool near)
{
    ik_jacobian_opts opts = ik_default_jacobian_opts();
    size_t size = skc_scratch_size(&skel_body.skeleton, HUMANOID_EFFECTORS);
    void *scratch = malloc(size);
    double all = clock_start();
    int i;
    opts.tolerance = opts.rotation_tolerance = IK_R(1e-5);
    r->solved = r->attempts = 0;
    for (i = 0; i < r->problems; i++) {
        double t0 = now_ns();
        r->solved += skel_problem(i, near, &opts, scratch, size, &r->attempts);
        r->ns[i] = now_ns() - t0;
    }
    r->mean = clock_stop(all) / r->problems;
    qsort(r->ns, (size_t)r->problems, sizeof(double), cmp_double);
    free(scratch);
}

// Solve rates from near and random starts (100 runs' problems, at most 10,000).
static void skeleton_random_table(int runs)
{
    skel_problems r;
    char random_row[64];
    const char *rows[2] = { "near starts (the state + up to 0.1 per value)", random_row };
    int k;
    snprintf(random_row, sizeof random_row, "random starts, probes of %d + %d iterations, 5 ms",
             SKEL_PROBE_ITERATIONS, SKEL_ATTEMPT_ITERATIONS);
    r.problems = runs < 100 ? 100 * runs : 10000;
    r.ns = (double *)malloc(sizeof(double) * (size_t)r.problems);
    if (count_file)
        printf("\n(instructions: the median per problem is not counted (-1); the 5 ms budget "
               "is still wall-clock time,\nwhich callgrind slows: the random starts' rate and "
               "attempts are not the native run's)\n");
    printf("\n| humanoid, 5 effectors, targets from random states, DLS | problems | solved to "
           "1e-5 m, 1e-5 rad | us per problem: median |   mean | solves per problem |\n");
    printf("|--------------------------------------------------------|----------|----------------"
           "-------------|------------------------|--------|--------------------|\n");
    for (k = 0; k < 2; k++) {
        skel_problems_run(&r, k == 0);
        char rate[32];
        snprintf(rate, sizeof rate, "%.2f%% (%d missed)", 100.0 * r.solved / r.problems,
                 r.problems - r.solved);
        printf("| %-54s | %8d | %27s | %22.1f | %6.1f | %18.2f |\n", rows[k], r.problems, rate,
               count_file ? -1 : r.ns[r.problems / 2] / 1000, skel_us(r.mean),
               (double)r.attempts / r.problems);
    }
    free(r.ns);
}

// The humanoid's iterations: targets from a random state within the limits (seeds 1 to 5), the
// start that state with every value moved by up to 0.3 (into the limits: the iterations still
// work well above the rounding floor), solves of 10 and of 1 DLS iteration at tolerance 0 timed
// in turns, with the head aiming (26 task rows) or, as a full pose, 30: a further iteration and
// the work once per solve, as the size table's.
static void skeleton_iteration_table(int runs)
{
    static skel_case sc[2];
    const bench_fn fn[2] = { run_skel, run_skel };
    double iter[2] = { 0, 0 }, once[2] = { 0, 0 };
    int k, seed, e, full = 1;
    for (k = 0; k < 2; k++)
        for (seed = 1; seed <= 5; seed++) {
            unsigned long long draw = (unsigned long long)seed;
            double t[2];
            ik_real truth[HUMANOID_DOF];
            sc[0].skeleton = skel_body.skeleton;
            sc[0].count = HUMANOID_EFFECTORS;
            sc[0].dof = HUMANOID_DOF;
            skc_random_state(&skel_body.skeleton, &draw, 0.5, truth);
            skel_body_effectors(truth, sc[0].effectors);
            for (e = 0; k == 1 && e < HUMANOID_EFFECTORS; e++)
                sc[0].effectors[e].kind = IK_EFFECTOR_POSE;
            skc_targets_at(&skel_body.skeleton, truth, sc[0].effectors, HUMANOID_EFFECTORS);
            memcpy(sc[0].q0, truth, sizeof truth);
            skc_perturb(&skel_body.skeleton, &draw, 0.3, sc[0].q0);
            sc[0].opts = ik_default_jacobian_opts();
            sc[0].opts.tolerance = sc[0].opts.rotation_tolerance = sc[0].opts.min_improvement = 0;
            sc[0].size = skc_scratch_size(&skel_body.skeleton, HUMANOID_EFFECTORS);
            sc[0].scratch = (unsigned char *)malloc(sc[0].size);
            sc[1] = sc[0];
            sc[1].scratch = (unsigned char *)malloc(sc[0].size);
            sc[0].opts.max_iterations = 1;
            sc[1].opts.max_iterations = 10;
            median_ns_interleaved(fn, sc, sizeof sc[0], 2, 2, runs, t);
            full = full && sc[1].iterations == 10;
            iter[k] += (t[1] - t[0]) / 9 / 5;
            once[k] += (t[0] - (t[1] - t[0]) / 9) / 5;
            free(sc[0].scratch);
            free(sc[1].scratch);
            sc[0].scratch = sc[1].scratch = NULL;
        }
    printf(
        "\n| humanoid, DLS, ns (5 cases, starts 0.3 off)     | head aim (26 rows) | head pose (30 "
        "rows) |\n");
    printf("|-------------------------------------------------|--------------------|--------------"
           "-------|\n");
    printf("| a further iteration: (t(10) - t(1)) / 9%s       | %18.0f | %19.0f |\n",
           full ? "  " : " *", iter[0], iter[1]);
    printf("| once per solve: t(1) - a further iteration      | %18.0f | %19.0f |\n", once[0],
           once[1]);
    if (!full)
        printf("(*: a 10-iteration solve ended early)\n");
}

static void skeleton_tables(int runs)
{
    humanoid_build(&skel_body);
    skeleton_path_table(runs);
    skeleton_random_table(runs);
    skeleton_iteration_table(runs);
    skeleton_size_table(runs);
}
#else
static void skeleton_tables(int runs)
{
    (void)runs;
    printf("(no skeletons in this ik.h)\n");
}
#endif

// ---- --fabrik: FABRIK's cost per iteration, and iterations and time to a tolerance against CCD
// and DLS (docs/fabrik.md)

#if IK_VERSION_MAJOR > 0 || IK_VERSION_MINOR >= 13 // (FABRIK: 0.13.0)

#define FAB_KINDS 3 // free ball joints, free z/y hinges, hinges (+-2) and ball joints in a cone

typedef struct fab_case {
    ik_chain chain;
    ik_joint joints[100];
    ik_ball_limit cone;
    ik_real q0[300], q[300];
    ik_target target;
    ik_fabrik_opts opts;
    ik_ccd_opts ccd;
    ik_jacobian_opts dls;
    unsigned char scratch[1 << 17];
    int dof, iterations;
    ik_status status;
} fab_case;

static const char *const fab_kind_names[FAB_KINDS] = { "ball", "hinge", "hinge+cone" };

// Solver 0 FABRIK, 1 CCD, 2 DLS from q0, with the case's options.
static void fab_run_solver(fab_case *c, int solver)
{
    ik_solve_info info;
    memcpy(c->q, c->q0, (size_t)c->dof * sizeof c->q[0]);
    info.iterations = -1;
    info.status = IK_STATUS_MAX_ITERATIONS;
    if (solver == 0)
        ik_fabrik_solve(&c->chain, &c->target, &c->opts, c->q, c->scratch, sizeof c->scratch, &info,
                        NULL);
    else if (solver == 1)
        ik_ccd_solve(&c->chain, &c->target, &c->ccd, c->q, c->scratch, sizeof c->scratch, &info);
    else
        ik_jacobian_solve(&c->chain, &c->target, &c->dls, c->q, c->scratch, sizeof c->scratch,
                          &info);
    c->iterations = info.iterations;
    c->status = info.status;
    sink = (double)c->q[0];
}

static void run_fabrik(void *arg)
{
    fab_run_solver((fab_case *)arg, 0);
}

// A random state: ball joints' maps in [-r, r]^3 (in the cone where there is one), hinges in
// [-2r, 2r].
static void fab_random_state(fab_case *c, ik_real *q, double r)
{
    int i, at = 0;
    for (i = 0; i < c->chain.joint_count; i++) {
        if (c->joints[i].type == IK_JOINT_BALL) {
            ik_vec3 v = ik_vec3_make((ik_real)rnd(-r, r), (ik_real)rnd(-r, r), (ik_real)rnd(-r, r));
            if (c->joints[i].limit)
                v = ik_quat_to_expmap(
                    ik_ball_limit_project(c->joints[i].limit, ik_quat_from_expmap(v)));
            q[at++] = v.x;
            q[at++] = v.y;
            q[at++] = v.z;
        } else {
            q[at++] = (ik_real)rnd(-2 * r, 2 * r);
        }
    }
}

// n unit links along z of this kind; a reachable target (FK of a random state) and another
// random start.
static void make_fab_case(fab_case *c, int n, int kind)
{
    ik_xform goal;
    int i;
    ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), IK_R(1.0), IK_R(0.6),
                       IK_R(-0.5), IK_R(0.5), &c->cone);
    for (i = 0; i < n; i++) {
        ik_xform origin = ik_xform_translation(ik_vec3_make(0, 0, i ? 1 : 0));
        bool hinge = kind == 1 || (kind == 2 && i % 2 == 0);
        c->joints[i] = hinge ? ik_joint_revolute(origin, i % 4 < 2 ? ik_vec3_make(0, 0, 1)
                                                                   : ik_vec3_make(0, 1, 0))
                             : ik_joint_ball(origin);
        if (kind == 1 && i % 2)
            c->joints[i].axis = ik_vec3_make(0, 1, 0);
        if (kind == 2 && hinge) {
            c->joints[i].axis = ik_vec3_make(1, 0, 0);
            c->joints[i].lo = IK_R(-2);
            c->joints[i].hi = IK_R(2);
        }
        c->joints[i].limit = kind == 2 && !hinge ? &c->cone : NULL;
    }
    c->chain = ik_chain_make(c->joints, n, ik_xform_translation(ik_vec3_make(0, 0, 1)));
    c->dof = ik_chain_dof(&c->chain);
    fab_random_state(c, c->q, 0.5);
    ik_chain_fk(&c->chain, c->q, NULL, &goal);
    c->target = ik_target_position(goal.pos);
    fab_random_state(c, c->q0, 0.5);
    c->opts = ik_default_fabrik_opts();
    c->ccd = ik_default_ccd_opts();
    c->dls = ik_default_jacobian_opts();
}

// The floor: bare FABRIK iterations on n + 1 points (unit links, no joints, no checks), each
// step one normalization with its square root and division side by side; from a straight line
// along z to the goal, iterations times.
typedef struct fab_floor_case {
    double p[101][3], goal[3];
    int n, iterations;
} fab_floor_case;

// One bare pass over the points from `from` toward `to` (step +-1), the first point at x.
static void fab_floor_pass(fab_floor_case *c, int from, int to, const double *x0)
{
    double x = x0[0], y = x0[1], z = x0[2];
    int i, step = to > from ? 1 : -1;
    c->p[from][0] = x, c->p[from][1] = y, c->p[from][2] = z;
    for (i = from + step; i != to + step; i += step) {
        double dx = c->p[i][0] - x, dy = c->p[i][1] - y, dz = c->p[i][2] - z;
        double d2 = dx * dx + dy * dy + dz * dz, k = sqrt(d2) * (1 / d2);
        x += k * dx, y += k * dy, z += k * dz;
        c->p[i][0] = x, c->p[i][1] = y, c->p[i][2] = z;
    }
}

static void run_fab_floor(void *arg)
{
    fab_floor_case *c = (fab_floor_case *)arg;
    static const double root[3] = { 0, 0, 0 };
    int i, it;
    for (i = 0; i <= c->n; i++)
        c->p[i][0] = 0.01 * (i % 2), c->p[i][1] = 0, c->p[i][2] = i;
    for (it = 0; it < c->iterations; it++) {
        fab_floor_pass(c, c->n, 0, c->goal);
        fab_floor_pass(c, 0, c->n, root);
    }
    sink = c->p[c->n][0];
}

// The floor's marginal ns per joint per iteration for n links (k1 = 2, k2 = 12 iterations).
static double fab_floor(int n, int runs)
{
    static fab_floor_case c[2];
    const bench_fn fns[2] = { run_fab_floor, run_fab_floor };
    double t[2];
    int i;
    for (i = 0; i < 2; i++) {
        c[i].n = n, c[i].iterations = i == 0 ? 2 : 12;
        c[i].goal[0] = 0.3 * n, c[i].goal[1] = 0.4 * n, c[i].goal[2] = 0.2 * n;
    }
    median_ns_interleaved(fns, c, sizeof c[0], 2, 20000 / (n * 12) + 1, runs, t);
    return (t[1] - t[0]) / 10 / n;
}

// The cost of a solve against its iterations: the slope (ns per joint per iteration) and the
// rest (ns per solve) of the line through solves of few and of more iterations (tolerance 0).
static void fab_iteration_table(int runs)
{
    static fab_case c[2]; // k1 and k2 iterations, timed in turns
    static const int sizes[4] = { 3, 7, 20, 100 };
    const bench_fn fns[2] = { run_fabrik, run_fabrik };
    int kind, k;
    printf("\nFABRIK, position targets, n unit links (%s): the marginal cost of an iteration "
           "(t(k2) - t(k1)) / (k2 - k1) / n and the rest t(k1) - k1 x that, per solve; "
           "ik_fabrik_solve from one start to one reachable target, tolerance 0\n\n",
           "ball: free ball joints; hinge: z, y hinges; hinge+cone: x hinges in [-2, 2] and ball "
           "joints in a 1.0 x 0.6 cone, twist +-0.5, alternately");
    printf(
        "| chain            | ns per joint per iteration | setup ns per solve | iterations k1, k2 "
        "|\n");
    printf(
        "|------------------|----------------------------|--------------------|------------------"
        "-|\n");
    for (kind = 0; kind < FAB_KINDS; kind++)
        for (k = 0; k < 4; k++) {
            int n = sizes[k], i;
            double t[2], per;
            for (i = 0; i < 2; i++) {
                rng_state = 7 + (unsigned long long)k;
                make_fab_case(&c[i], n, kind);
                c[i].opts.tolerance = 0;
                c[i].opts.min_improvement = 0;
                c[i].opts.max_iterations = i == 0 ? 2 : 12;
            }
            median_ns_interleaved(fns, c, sizeof c[0], 2, 20000 / (n * 12) + 1, runs, t);
            per = c[1].iterations > c[0].iterations
                      ? (t[1] - t[0]) / (c[1].iterations - c[0].iterations)
                      : 0;
            printf("| %-10s x %-3d | %26.2f | %18.0f | %8d, %-7d |\n", fab_kind_names[kind], n,
                   per / n, t[0] - c[0].iterations * per, c[0].iterations, c[1].iterations);
        }
    for (k = 0; k < 4; k++) // (the floor: what any FABRIK iteration on points costs here)
        printf("| bare points x %-3d | %26.2f | %18s | %8d, %-7d |\n", sizes[k],
               fab_floor(sizes[k], runs), "-", 2, 12);
}

// Per solver and tolerance, over `count` problems: how many converged, their median iterations
// and time (us).
static void fab_convergence_row(fab_case *c, int n, int kind, int solver, int count)
{
    static const double tols[4] = { 1e-2, 1e-4, 1e-6, 1e-5 };
    static const char *const names[3] = { "FABRIK", "CCD", "DLS" };
    double its[64], us[64];
    int t, p;
    printf("| %-10s x %-3d | %-6s |", fab_kind_names[kind], n, names[solver]);
    for (t = 0; t < 4; t++) {
        int solved = 0;
        rng_state = 99 + (unsigned long long)n; // the same problems for every solver
        for (p = 0; p < count; p++) {
            double t0;
            make_fab_case(c, n, kind);
            c->opts.tolerance = c->ccd.tolerance = c->dls.tolerance = (ik_real)tols[t];
            c->opts.max_iterations = c->ccd.max_sweeps = c->dls.max_iterations = 100;
            t0 = clock_start();
            fab_run_solver(c, solver);
            t0 = clock_stop(t0);
            if (c->status != IK_STATUS_CONVERGED)
                continue;
            its[solved] = c->iterations;
            us[solved++] = t0 / 1000;
        }
        qsort(its, (size_t)solved, sizeof(double), cmp_double);
        qsort(us, (size_t)solved, sizeof(double), cmp_double);
        if (t == 3)
            printf(" %4d of %-3d |\n", solved, count);
        else if (solved == 0)
            printf("               - |");
        else
            printf(" %7.0f %7.1f |", its[solved / 2], us[solved / 2]);
    }
}

// Iterations and time to 1e-2, 1e-4, 1e-6 and the share solved to 1e-5 in 100 iterations, for
// FABRIK, CCD and DLS on the same problems.
static void fab_convergence_table(void)
{
    static fab_case c;
    static const int sizes[4] = { 3, 7, 20, 100 };
    int kind, k, s;
    printf("\nThe same problems for each solver (reachable: FK of a random state; another random "
           "start), at most 100 iterations (CCD: sweeps): the median iterations and us of the "
           "solves that converged, and how many converged to 1e-5; one timing a solve\n\n");
    printf("| chain            | solver | 1e-2: it     us | 1e-4: it     us | 1e-6: it     us | "
           "1e-5 solved |\n");
    printf("|------------------|--------|-----------------|-----------------|-----------------|"
           "-------------|\n");
    for (kind = 0; kind < FAB_KINDS; kind += 2)
        for (k = 0; k < 4; k++)
            for (s = 0; s < 3; s++)
                fab_convergence_row(&c, sizes[k], kind, s, sizes[k] == 100 ? 20 : 50);
}

// The humanoid (bench/humanoid.h) with position effectors on its hands and feet (all priority
// 0), targets from the forward kinematics of a random state within the limits (seed i + 1, as
// --skeleton draws them), started 0.1 per value from it: FABRIK, CCD and DLS on the same problems.
#define FAB_BODY_PROBLEMS  100
#define FAB_BODY_EFFECTORS 4

// Problem i's effectors and start.
static void fab_body_problem(const humanoid *h, int i, ik_effector *e, ik_real *q)
{
    ik_xform none[2] = { ik_xform_identity(), ik_xform_identity() };
    ik_effector all[HUMANOID_EFFECTORS];
    unsigned long long draw = (unsigned long long)i + 1;
    int k;
    skc_random_state(&h->skeleton, &draw, 0.5, q);
    humanoid_effectors(h, none, none, ik_vec3_make(0, 0, 1), all);
    for (k = 0; k < FAB_BODY_EFFECTORS; k++) {
        e[k] = all[k];
        e[k].kind = IK_EFFECTOR_POSITION;
        e[k].priority = 0;
    }
    skc_targets_at(&h->skeleton, q, e, FAB_BODY_EFFECTORS);
    skc_perturb(&h->skeleton, &draw, 0.1, q);
}

// Solver 0 FABRIK, 1 CCD, 2 DLS on h, on problem i of `drawn` (the same joints, maybe with
// limits h lacks), to tol in at most 100 iterations: whether every effector is within tol
// (measured here), the iterations and us.
static bool fab_body_solve(const humanoid *h, const humanoid *drawn, int i, int solver, double tol,
                           void *scratch, size_t size, double *iterations, double *us)
{
    ik_effector e[FAB_BODY_EFFECTORS];
    ik_real q[HUMANOID_DOF];
    ik_fabrik_opts fo = ik_default_fabrik_opts();
    ik_ccd_opts co = ik_default_ccd_opts();
    ik_jacobian_opts jo = ik_default_jacobian_opts();
    ik_solve_info info;
    double t0;
    fab_body_problem(drawn, i, e, q);
    fo.tolerance = co.tolerance = jo.tolerance = (ik_real)tol;
    fo.max_iterations = co.max_sweeps = jo.max_iterations = 100;
    info.iterations = -1;
    t0 = clock_start();
    if (solver == 0)
        ik_skeleton_fabrik_solve(&h->skeleton, e, FAB_BODY_EFFECTORS, &fo, q, scratch, size, &info,
                                 NULL);
    else if (solver == 1)
        ik_skeleton_ccd_solve(&h->skeleton, e, FAB_BODY_EFFECTORS, &co, q, scratch, size, &info,
                              NULL);
    else
        ik_skeleton_solve(&h->skeleton, e, FAB_BODY_EFFECTORS, &jo, q, scratch, size, &info, NULL);
    *us = clock_stop(t0) / 1000;
    *iterations = info.iterations;
    return skc_met(&h->skeleton, q, e, FAB_BODY_EFFECTORS, tol * (1 + 1e-9), 1);
}

static void fab_body_table(void)
{
    static humanoid body, free_body;
    const humanoid *bodies[2] = { &body, &free_body };
    static const double tols[4] = { 1e-2, 1e-4, 1e-6, 1e-5 };
    static const char *const names[3] = { "FABRIK", "CCD", "DLS" };
    static double its[FAB_BODY_PROBLEMS], us[FAB_BODY_PROBLEMS];
    size_t size;
    void *scratch;
    int solver, t, p, b, i;
    ik_effector e[FAB_BODY_EFFECTORS];
    ik_real q[HUMANOID_DOF];
    humanoid_build(&body);
    humanoid_build(&free_body);
    for (i = 0; i < HUMANOID_JOINTS; i++) { // (the same body without its limits)
        free_body.joints[i].limit = NULL;
        if (free_body.joints[i].type == IK_JOINT_REVOLUTE)
            free_body.joints[i].lo = -IK_INFINITY, free_body.joints[i].hi = IK_INFINITY;
    }
    fab_body_problem(&body, 0, e, q);
    size = ik_skeleton_fabrik_scratch_size(&body.skeleton, e, FAB_BODY_EFFECTORS);
    size = size > ik_skeleton_scratch_size(&body.skeleton, e, FAB_BODY_EFFECTORS)
               ? size
               : ik_skeleton_scratch_size(&body.skeleton, e, FAB_BODY_EFFECTORS);
    size = size > ik_skeleton_ccd_scratch_size(&body.skeleton, FAB_BODY_EFFECTORS)
               ? size
               : ik_skeleton_ccd_scratch_size(&body.skeleton, FAB_BODY_EFFECTORS);
    scratch = malloc(size);
    printf("\nThe humanoid (bench/humanoid.h, 27 joints, 55 values), position effectors on hands "
           "and feet (priority 0), %d targets from random states, starts 0.1 per value from them, "
           "at most 100 iterations (CCD: sweeps); met: every effector within the tolerance "
           "(measured by FK); the median iterations and us of those. No limits: the same "
           "problems on the body without its hinge ranges and ball limits\n\n",
           FAB_BODY_PROBLEMS);
    printf("| humanoid         | solver | 1e-2: met  it     us | 1e-4: met  it     us | 1e-6: met "
           " it     us | 1e-5 solved |\n");
    printf("|------------------|--------|----------------------|----------------------|---------"
           "-------------|-------------|\n");
    for (b = 0; b < 2; b++)
        for (solver = 0; solver < 3; solver++) {
            printf("| %-16s | %-6s |", b ? "no limits" : "hands and feet", names[solver]);
            for (t = 0; t < 4; t++) {
                int solved = 0;
                for (p = 0; p < FAB_BODY_PROBLEMS; p++) // (the limited body's problems)
                    solved += fab_body_solve(bodies[b], &body, p, solver, tols[t], scratch, size,
                                             &its[solved], &us[solved]);
                qsort(its, (size_t)solved, sizeof(double), cmp_double);
                qsort(us, (size_t)solved, sizeof(double), cmp_double);
                if (t == 3)
                    printf(" %4d of %-3d |\n", solved, FAB_BODY_PROBLEMS);
                else if (solved == 0)
                    printf("        0       -       - |");
                else
                    printf(" %9d %3.0f %6.1f |", solved, its[solved / 2], us[solved / 2]);
            }
        }
    free(scratch);
}

static void fabrik_tables(int runs)
{
    fab_iteration_table(runs);
    if (!count_file) { // (one dump a solve: not under callgrind)
        fab_convergence_table();
        fab_body_table();
    }
}
#else
static void fabrik_tables(int runs)
{
    (void)runs;
    printf("(no FABRIK in this ik.h)\n");
}
#endif

#ifdef IK__CLOSED_FREE // (closed forms in this ik.h)
// --closed: every solution of a UR5e and of a KUKA KR 6 R900 (bench/industrial.h) by
// ik_closed_form_solve() for CLOSED_POSES random reachable poses (states uniform within the
// limits, -pi..pi at most), median over the poses of ns per solve (CLOSED_INNER calls of each);
// beside it ik_arm_solve() on the same targets from the zero state (one call each).
#define CLOSED_POSES 256
#define CLOSED_INNER 16
typedef struct closed_case {
    arm_def arm;
    ik_closed_form cf;
    ik_xform target[CLOSED_POSES];
    ik_real swivel[CLOSED_POSES]; // (SRS: the state's)
    ik_closed_solution out[512];
    ik_swivel_interval intervals[64];
    int max_out, pose, count;
} closed_case;

// The answers at the pose's swivel (6R arms: every answer).
static void run_closed(void *arg)
{
    closed_case *c = (closed_case *)arg;
    ik_closed_info info;
    ik_closed_form_solve_swivel(&c->cf, c->target[c->pose], c->swivel[c->pose], NULL, NULL, c->out,
                                c->max_out, &info);
    c->count = info.count;
    sink += (double)info.count;
}

// An SRS arm's swivel intervals at the pose.
static void run_swivel_intervals(void *arg)
{
    closed_case *c = (closed_case *)arg;
    ik_closed_form_swivel_intervals(&c->cf, c->target[c->pose], c->intervals, 64, &c->count);
    sink += (double)c->count;
}

// The arm (industrial id, or for id INDUSTRIAL_COUNT the KUKA iiwa 14), its closed form and the
// random targets.
static void closed_case_make(closed_case *c, industrial_id id)
{
    ik_real q[7];
    int p, j;
    if (id == INDUSTRIAL_COUNT)
        arm_build(ARM_IIWA14, &c->arm);
    else
        industrial_build(id, &c->arm);
    ik_chain_closed_form(&c->arm.chain, &c->cf, NULL);
    for (p = 0; p < CLOSED_POSES; p++) {
        for (j = 0; j < c->cf.joint_count; j++)
            q[j] = (ik_real)rnd(c->cf.lo[j] > -ARM_PI ? (double)c->cf.lo[j] : -ARM_PI,
                                c->cf.hi[j] < ARM_PI ? (double)c->cf.hi[j] : ARM_PI);
        ik_chain_fk(&c->arm.chain, q, NULL, &c->target[p]);
        c->swivel[p] = 0;
        if (c->cf.kind == IK_CLOSED_FORM_SRS)
            ik_closed_form_swivel(&c->cf, q, &c->swivel[p]);
    }
}

// Median over the poses of ns per call of fn (run_closed, run_swivel_intervals); the mean of
// the counts it leaves in c->count (solutions listed, intervals) into *mean.
static double closed_pose_median(closed_case *c, bench_fn fn, double *mean)
{
    static double t[CLOSED_POSES];
    *mean = 0;
    for (c->pose = 0; c->pose < CLOSED_POSES; c->pose++) {
        t[c->pose] = median_ns(fn, c, CLOSED_INNER, 1);
        *mean += c->count / (double)CLOSED_POSES;
    }
    qsort(t, CLOSED_POSES, sizeof(double), cmp_double);
    return t[CLOSED_POSES / 2];
}

// closed_pose_median() of ik_closed_form_solve_swivel() with out of max_out.
static double closed_median(closed_case *c, int max_out, double *listed)
{
    c->max_out = max_out;
    return closed_pose_median(c, run_closed, listed);
}

// Median over the poses of ns per ik_arm_solve() from the zero state; converged into *solved.
static double closed_arm_median(closed_case *c, int *solved)
{
    static double t[CLOSED_POSES];
    static unsigned char scratch[1 << 15];
    ik_arm_opts opts = ik_default_arm_opts();
    int p;
    *solved = 0;
    for (p = 0; p < CLOSED_POSES; p++) {
        ik_real q[7] = { 0, 0, 0, 0, 0, 0, 0 };
        ik_target target = ik_target_pose(c->target[p]);
        ik_solve_info info;
        double t0 = clock_start();
        ik_arm_solve(&c->arm.chain, &target, &opts, q, scratch, sizeof scratch, &info);
        t[p] = clock_stop(t0);
        *solved += info.status == IK_STATUS_CONVERGED;
    }
    qsort(t, CLOSED_POSES, sizeof(double), cmp_double);
    return t[CLOSED_POSES / 2];
}

// The KUKA iiwa 14 (SRS): the answers at each pose's own swivel, its swivel intervals, and
// ik_arm_solve() from the zero state.
static void srs_table(void)
{
    static closed_case c;
    ik_closed_form shipped;
    double answers, eight, intervals, arm, n_answers, n_eight, n_intervals;
    int j, solved;
    closed_case_make(&c, INDUSTRIAL_COUNT);
    shipped = c.cf;
    for (j = 0; j < 7; j++) // (one listing an answer: the closed form's own cost)
        c.cf.lo[j] = -IK_PI, c.cf.hi[j] = IK_PI;
    answers = closed_median(&c, 8, &n_answers);
    c.cf = shipped;
    eight = closed_median(&c, 8, &n_eight);
    intervals = closed_pose_median(&c, run_swivel_intervals, &n_intervals);
    arm = closed_arm_median(&c, &solved);
    printf("\n| %d random poses, median ns per call | the answers at the pose's swivel, joints "
           "-pi..pi (count) | shipped limits: the 8 nearest | the swivel intervals (count) | "
           "ik_arm_solve, one answer (converged) |\n|---|--:|--:|--:|--:|\n",
           CLOSED_POSES);
    printf("| %s (SRS) | %.0f (%.2f) | %.0f | %.0f (%.2f) | %.0f (%d) |\n", c.arm.name, answers,
           n_answers, eight, intervals, n_intervals, arm, solved);
}

static void closed_table(void)
{
    static closed_case c;
    industrial_id ids[2] = { INDUSTRIAL_UR5E, INDUSTRIAL_KR6R900 };
    ik_closed_form shipped;
    int k, j, solved;
    printf("| %d random poses, median ns per solve | the answers, joints -pi..pi (count) | "
           "shipped limits: the 8 nearest | every listing (count) | ik_arm_solve, one answer "
           "(converged) |\n",
           CLOSED_POSES);
    printf("|---|--:|--:|--:|--:|\n");
    for (k = 0; k < 2; k++) {
        double answers, eight, all, arm, n_answers, n_eight, n_all;
        closed_case_make(&c, ids[k]);
        shipped = c.cf;
        for (j = 0; j < 6; j++) // (one listing an answer: the closed form's own cost)
            c.cf.lo[j] = -IK_PI, c.cf.hi[j] = IK_PI;
        answers = closed_median(&c, 8, &n_answers);
        c.cf = shipped;
        eight = closed_median(&c, 8, &n_eight);
        all = closed_median(&c, 512, &n_all);
        arm = closed_arm_median(&c, &solved);
        printf("| %s (%s) | %.0f (%.2f) | %.0f | %.0f (%.1f) | %.0f (%d) |\n", c.arm.name,
               k == 0 ? "three parallel axes" : "spherical wrist", answers, n_answers, eight, all,
               n_all, arm, solved);
    }
    srs_table();
}

// --closed-calls=A,L,N: N calls of ik_closed_form_solve() over the random poses, nothing timed
// (for valgrind --tool=callgrind --toggle-collect=ik_closed_form_solve_swivel: instructions / N):
// arm A (0 UR5e, 1 KR 6 R900, 2 iiwa 14 at each pose's swivel), L 0 joints -pi..pi and out of 8, 1
// shipped limits and out of 8, 2 shipped limits and every listing, 3 the swivel intervals (iiwa;
// --toggle-collect=ik_closed_form_swivel_intervals).
static void closed_calls(const int *v)
{
    static closed_case c;
    int i, j;
    closed_case_make(&c, v[0] == 0   ? INDUSTRIAL_UR5E
                         : v[0] == 1 ? INDUSTRIAL_KR6R900
                                     : INDUSTRIAL_COUNT);
    for (j = 0; j < c.cf.joint_count && v[1] == 0; j++)
        c.cf.lo[j] = -IK_PI, c.cf.hi[j] = IK_PI;
    c.max_out = v[1] == 2 ? 512 : 8;
    for (i = 0; i < v[2]; i++) {
        c.pose = i % CLOSED_POSES;
        if (v[1] == 3)
            run_swivel_intervals(&c);
        else
            run_closed(&c);
    }
}
#else
static void closed_table(void)
{
    printf("(no closed forms in this ik.h)\n");
}
static void closed_calls(const int *v)
{
    (void)v;
}
#endif

int main(int argc, char **argv)
{
    static chain_case c;
    int runs, i;
    bench_args args;
    struct {
        const char *kind;
        int n;
    } cases[] = { { "revolute", 7 }, { "ball", 5 }, { "revolute", 20 }, { "revolute", 64 } };
    if (!parse_args(argc, argv, &args)) {
        fprintf(stderr, "usage: bench [--runs=N] [--instructions=F] [--limits | --ball-limits | "
                        "--skeleton | "
                        "--fabrik | --closed] | "
                        "--further | "
                        "--ccd-weights | --ccd-split | --damping-range | "
                        "--limb-calls=W,K,N | --ccd-calls=n,N[,S[,F]] | --jac-calls=m,k,N[,I] | "
                        "--pin-calls=L,R,N[,I] | --closed-calls=A,L,N | --path-calls=R[,P]\n");
        return 2;
    }
    switch (args.mode) {
    case MODE_TABLES: break;
    case MODE_CCD_WEIGHTS: ccd_weights(); return 0;
    case MODE_CCD_SPLIT: ccd_split(); return 0;
    case MODE_DAMPING_RANGE: damping_range(); return 0;
    case MODE_FURTHER:
        print_title(args.runs, "\n\n");
        further_table();
        return 0;
    case MODE_BALL_LIMITS:
        print_title(args.runs, "\n");
        limit_table(args.runs);
        ball_chain_table(args.runs);
        return 0;
    case MODE_SKELETON:
        print_title(args.runs, "\n");
        skeleton_tables(args.runs);
        return 0;
    case MODE_FABRIK:
        print_title(args.runs, "\n");
        fabrik_tables(args.runs);
        return 0;
    case MODE_CLOSED:
        print_title(args.runs, "\n");
        closed_table();
        return 0;
    case MODE_CLOSED_CALLS: closed_calls(args.v); return 0;
    case MODE_PATH_CALLS: path_calls(args.v); return 0;
    case MODE_LIMITS:
        print_title(args.runs, "\n");
        svd_table(args.runs);
        return pin_table(args.runs) ? 0 : 1;
    default: calls(&args); return 0;
    }
    runs = args.runs;
    print_title(runs, "\n\n");
    printf("| chain          | dof | FK ns | Jacobian 6xdof ns | pinv (SVD) 6xdof ns |\n");
    printf("|----------------|-----|-------|-------------------|---------------------|\n");
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        double fk, jac, pinv;
        int inner;
        make_case(&c, cases[i].kind, cases[i].n);
        inner = 2000 / cases[i].n;
        fk = median_ns(run_fk, &c, inner, runs);
        jac = median_ns(run_jacobian, &c, inner, runs);
        pinv = median_ns(run_pinv, &c, inner / 4 + 1, runs);
        printf("| %-8s x %-3d | %3d | %5.0f | %17.0f | %19.0f |\n", cases[i].kind, cases[i].n,
               ik_chain_dof(&c.chain), fk, jac, pinv);
    }

    {
        // the three ways to call the limb solver, timed in turns (run 1 of each, run 2 of
        // each, ...) so that the load of the shared machine weighs on them alike
        static limb_case lc[3];
        const char *rows[3] = { "7-DOF, random pose targets", "two-bone, random positions",
                                "7-DOF, pose targets along a path" };
        bench_fn fn[3] = { run_limb, run_limb_prepared, run_limb_pose };
        double t[3];
        int kind;
        printf("\n| analytic limb, ns/solve          | ik_limb_solve, q | prepared, q | prepared, "
               "pose only |\n");
        printf("|----------------------------------|------------------|-------------|-----------"
               "----------|\n");
        for (kind = 0; kind < 3; kind++) {
            make_limb_case(&lc[0], kind);
            lc[1] = lc[2] = lc[0];
            median_ns_interleaved(fn, lc, sizeof lc[0], 3, 1000, runs, t);
            printf("| %-32s | %16.0f | %11.0f | %19.0f |\n", rows[kind], t[0], t[1], t[2]);
        }
    }

    {
        static jac_case jc;
        const char *mn[4] = { "DLS", "PINV", "SDLS (SVD)", "transpose" };
        int meth, kind;
        printf("\n| Jacobian IK (ik_jacobian_solve), ns per iteration | 7-DOF arm, pose | 5 ball "
               "joints, position | Panda (DH), pose |\n");
        printf("|---------------------------------------------------|-----------------|--------"
               "----"
               "-------------|------------------|\n");
        for (meth = 0; meth < 4; meth++) {
            double t[3];
            for (kind = 0; kind < 3; kind++) {
                make_jac_case(&jc, kind, (ik_jacobian_method)meth);
                t[kind] =
                    median_ns(run_jac, &jc, 20, runs) / (jc.iterations > 0 ? jc.iterations : 1);
            }
            printf("| %-49s | %15.0f | %23.0f | %16.0f |\n", mn[meth], t[0], t[1], t[2]);
        }
        // the next table's default-options solves (n iterations) against the same solves
        // capped at 1 iteration: (t(n) - t(1)) / (n - 1) is what each further iteration of such a
        // solve costs, without the per-solve work (the random state is put back, so that the next
        // table draws the same cases)
        unsigned long long rng_saved = rng_state;
        printf("\n|%s| 7-DOF arm, pose | 5 ball joints, position | Panda (DH), pose |\n",
               " Jacobian IK, ns per further iteration of a default solve: (t(n) - t(1)) / (n "
               "- 1) "
               "(n) ");
        printf("|%s|-----------------|-------------------------|------------------|\n",
               "-------------------------------------------------------------------------------"
               "----"
               "----");
        for (meth = 0; meth < 2; meth++) {
            double t[3];
            int it[3];
            for (kind = 0; kind < 3; kind++) {
                double t1, tn;
                make_jac_case(&jc, kind, (ik_jacobian_method)meth);
                jc.opts = ik_default_jacobian_opts();
                jc.opts.method = (ik_jacobian_method)meth;
                tn = median_ns(run_jac, &jc, 20, runs);
                it[kind] = jc.iterations;
                jc.opts.max_iterations = 1;
                t1 = median_ns(run_jac, &jc, 20, runs);
                t[kind] = it[kind] > 1 ? (tn - t1) / (it[kind] - 1) : -1;
            }
            printf("| %-85s | %9.0f (%3d) | %17.0f (%3d) | %10.0f (%3d) |\n", mn[meth], t[0], it[0],
                   t[1], it[1], t[2], it[2]);
        }
        rng_state = rng_saved;
        // whole solves at the default tolerances and iteration budget from the same starts
        printf("\n| Jacobian IK, ns per solve (iterations), default options | 7-DOF arm, pose | "
               "5 ball joints, position | Panda (DH), pose |\n");
        printf("|---------------------------------------------------------|-----------------|---"
               "----------------------|------------------|\n");
        for (meth = 0; meth < 4; meth++) {
            double t[3];
            int it[3];
            for (kind = 0; kind < 3; kind++) {
                make_jac_case(&jc, kind, (ik_jacobian_method)meth);
                jc.opts = ik_default_jacobian_opts();
                jc.opts.method = (ik_jacobian_method)meth;
                t[kind] = median_ns(run_jac, &jc, 20, runs);
                it[kind] = jc.iterations;
            }
            printf("| %-55s | %9.0f (%3d) | %17.0f (%3d) | %10.0f (%3d) |\n", mn[meth], t[0], it[0],
                   t[1], it[1], t[2], it[2]);
        }
    }

    {
        static ccd_case cc;
        int sizes[4] = { 3, 7, 20, 100 }, k, kind;
        const char *names[3] = { "revolute, position", "revolute, full pose", "ball, position" };
        printf("\n| CCD (ik_ccd_solve), ns per joint per sweep | n = 3 | n = 7 | n = 20 | n = 100 "
               "|\n");
        printf("|--------------------------------------------|-------|-------|--------|--------"
               "-|\n");
        // (the last row: the first row's solves on the chain prepared once)
        unsigned long long first_rng[4];
        for (kind = 0; kind < 4; kind++) {
            printf("| %-42s |", kind < 3 ? names[kind] : "revolute, position, prepared");
            for (k = 0; k < 4; k++) {
                double t;
                if (kind == 0)
                    first_rng[k] = rng_state;
                if (kind == 3)
                    rng_state = first_rng[k];
                make_ccd_case(&cc, sizes[k], kind == 2, kind == 1);
                if (kind == 3)
                    ccd_prepare(&cc);
                t = median_ns(run_ccd, &cc, 2000 / (10 * sizes[k]) + 1, runs);
                printf(" %*.1f |", k < 2 ? 5 : (k == 2 ? 6 : 7),
                       t / ((cc.sweeps > 0 ? cc.sweeps : 1) * sizes[k]));
            }
            printf("\n");
        }
        // The same solves with 20 sweeps: the difference is the cost of the sweeps alone,
        // without the work done once per solve (checks, frames, angles in and out, the final
        // forward kinematics). n/a: the solve ends before 10 sweeps (the target is met exactly).
        printf("\n| CCD, sweeps alone: (20 - 10 sweeps) / 10 n, ns | n = 3 | n = 7 | n = 20 | "
               "n = 100 "
               "|\n");
        printf("|------------------------------------------------|-------|-------|--------|------"
               "---|\n");
        for (kind = 0; kind < 3; kind++) {
            printf("| %-46s |", names[kind]);
            for (k = 0; k < 4; k++) {
                double t10, t20;
                int s10;
                make_ccd_case(&cc, sizes[k], kind == 2, kind == 1);
                t10 = median_ns(run_ccd, &cc, 2000 / (10 * sizes[k]) + 1, runs);
                s10 = cc.sweeps;
                cc.opts.max_sweeps = 20;
                t20 = median_ns(run_ccd, &cc, 2000 / (20 * sizes[k]) + 1, runs);
                if (cc.sweeps > s10)
                    printf(" %*.1f |", k < 2 ? 5 : (k == 2 ? 6 : 7),
                           (t20 - t10) / ((cc.sweeps - s10) * sizes[k]));
                else
                    printf(" %*s |", k < 2 ? 5 : (k == 2 ? 6 : 7), "n/a");
            }
            printf("\n");
        }
        // One sweep per call, as in interactive use (a sweep per frame): the work done once per
        // solve, which the tables above spread over 10 sweeps, comes with every sweep here. The
        // last rows pass info NULL, which spares the final forward kinematics, and solve a chain
        // prepared once (ik_ccd_solve_prepared).
        printf("\n| CCD, one sweep per call, ns per joint          | n = 3 | n = 7 | n = 20 | "
               "n = 100 "
               "|\n");
        printf("|-----------------------------------------------|-------|-------|--------|--------"
               "-|\n");
        for (kind = 0; kind < 6; kind++) {
            const char *more[3] = { "revolute, position, info NULL", "revolute, position, prepared",
                                    "revolute, position, prepared, info NULL" };
            printf("| %-45s |", kind < 3 ? names[kind] : more[kind - 3]);
            for (k = 0; k < 4; k++) { // (the revolute position rows: the same solves)
                if (kind == 0)
                    first_rng[k] = rng_state;
                if (kind >= 3)
                    rng_state = first_rng[k];
                make_ccd_case(&cc, sizes[k], kind == 2, kind == 1);
                cc.opts.max_sweeps = 1;
                cc.no_info = kind == 3 || kind == 5;
                if (kind >= 4)
                    ccd_prepare(&cc);
                printf(" %*.1f |", k < 2 ? 5 : (k == 2 ? 6 : 7),
                       median_ns(run_ccd, &cc, 2000 / sizes[k] + 1, runs) / sizes[k]);
            }
            printf("\n");
        }
    }
    svd_table(runs);
    {
        bool pins_found = pin_table(runs);
        limit_table(runs);
        ball_chain_table(runs);
        return pins_found ? 0 : 1;
    }
}
