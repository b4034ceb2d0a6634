/* kdl_closed - every solution in closed form against Orocos KDL 1.5 (Debian's liborocos-kdl-dev)
   on the six-axis arms of bench/industrial.h and the seven-axis KUKA iiwa 14 of bench/arms.h,
   the same poses in one run, one table (make bench-kdl-closed; bench/kdl_closed.sh).
   Usage: kdl_closed [--poses N]
          kdl_closed --calls=A,S,K,N   N solves, nothing timed, for instruction counts (below)

   Arms: UR5e, UR10 (three parallel axes), ABB IRB 2400, Fanuc LR Mate 200iD, KUKA KR 6 R900
   (spherical wrist), KUKA LBR iiwa 14 (SRS: spherical shoulder and wrist). KDL's chain is made from the same ik.h chain: each revolute joint a
   Segment(Joint(origin, axis, RotAxis), its origin frame), the tool a fixed segment; the two
   FKs are compared at every pose (a line under the arm's rows if they differ by more than
   1e-12). Poses: N per arm (default 1000), the FK of states uniform within the joints' limits,
   at most -pi..pi (bench --closed's generation, its LCG reset to seed 1 for each arm); the
   iiwa's swivel of each pose that of its true state (ik_closed_form_swivel()). Starts: the zero state ("zero"), or the true state plus 0.1 rad on every joint, clamped to
   the limits ("near").

   Solvers: ik_closed_form_solve() with every joint's limits -pi..pi and max_out 8 (every
   closed-form answer, each once: the closed form's own cost; near_state the start for "near",
   NULL for "zero"), the same with the arm's limits and the 8 answers nearest the start,
   ik_arm_solve() (default options: one answer within the limits, tolerance 1e-6), KDL's
   ChainIkSolverPos_NR_JL with ChainFkSolverPos_recursive and ChainIkSolverVel_pinv (100
   iterations, eps 1e-6: every twist component), and ChainIkSolverPos_LMA (equal weights, eps
   1e-6 on the error's norm, 500 iterations; it knows no limits: its answer moved by whole turns
   into them where that fits, inside the timing). The iiwa: ik_closed_form_solve_swivel() at the
   pose's swivel in place of ik_closed_form_solve() (the same two rows), and
   ik_closed_form_swivel_intervals() (up to 64 intervals; it takes no start: both columns time
   the same call).
   Solved: the solver's own status says so (the closed form: at least one answer; ik.h:
   IK_STATUS_CONVERGED; KDL: return code 0), and ik.h's FK of every answer is within 1e-6 of the
   target in each position component (m) and each component of the rotation vector between
   them (rad, in the root frame, as KDL's own test), and the one answer of ik_arm_solve and
   KDL is within the arm's limits; the iiwa's closed form at a swivel also lists the true state
   (every joint within 1e-6 rad), and its swivel intervals hold the pose's swivel in one of the
   true state's branch (to 1e-9 rad). Times: each pose solved once untimed, then REPEATS (4) times;
   the mean of those, median over the poses.

   --calls=A,S,K,N (valgrind --tool=callgrind --toggle-collect=count_solve): N solves over 256
   poses by arm A (0..5, the order above), solver S (0 every answer -pi..pi, 1 the 8 nearest,
   2 ik_arm_solve, 3 the iiwa's swivel intervals: --calls=5,3,0,N), start K (0 zero, 1 near);
   instructions / N (bench/kdl_closed.sh). */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arms.h"
#include "industrial.h"
#include <algorithm>
#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#include <string>
#include <vector>

#define REPEATS       4
#define TOLERANCE     1e-6
#define ARMS          (INDUSTRIAL_COUNT + 1) // the industrial arms, then the iiwa 14
#define MAX_JOINTS    7
#define MAX_INTERVALS 64

enum solver_id {
    CLOSED_ALL,
    CLOSED_NEAREST,
    ARM_SOLVE,
    SWIVEL_INTERVALS, // (SRS only)
    KDL_NR_JL,
    KDL_LMA,
    SOLVERS
};
static const char *const solver_names[SOLVERS] = {
    "`ik_closed_form_solve`, every answer (-pi..pi)",
    "`ik_closed_form_solve`, the arm's limits, 8 nearest",
    "`ik_arm_solve`, one answer",
    "`ik_closed_form_swivel_intervals` (intervals)",
    "KDL `ChainIkSolverPos_NR_JL` + pinv",
    "KDL `ChainIkSolverPos_LMA`"
};
static const char *const srs_solver_names[2] = {
    "`ik_closed_form_solve_swivel` at the pose's swivel, every answer (-pi..pi)",
    "`ik_closed_form_solve_swivel` at the pose's swivel, the arm's limits, 8 nearest"
};
// The rows of an arm, in order (the swivel intervals for SRS arms only).
static const solver_id row_order[SOLVERS] = { CLOSED_ALL, CLOSED_NEAREST, SWIVEL_INTERVALS,
                                              ARM_SOLVE,  KDL_NR_JL,      KDL_LMA };

static double now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static unsigned long long rng_state = 1;
static double rnd(double lo, double hi) // (bench/bench.c's)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static KDL::Vector kdl_vector(ik_vec3 v)
{
    return KDL::Vector(v.x, v.y, v.z);
}

static KDL::Frame kdl_frame(ik_xform x)
{
    return KDL::Frame(KDL::Rotation::Quaternion(x.rot.x, x.rot.y, x.rot.z, x.rot.w),
                      kdl_vector(x.pos));
}

// One arm: ik.h's chain, its closed forms, KDL's chain and solvers, the poses and starts.
struct arm_case {
    arm_def arm;
    int n;                    // joints (the state's length)
    bool srs;                 // an SRS arm: the answers at a swivel
    ik_closed_form cf_pi, cf; // limits -pi..pi, the arm's
    std::vector<ik_xform> target;
    std::vector<KDL::Frame> kdl_target; // the same
    std::vector<ik_real> truth, near;   // [pose * n + j]
    std::vector<ik_real> swivel;        // SRS: the true state's swivel
    std::vector<int> branch;            // SRS: the true state's branch
    std::vector<unsigned char> scratch;
    ik_arm_opts arm_opts;
    KDL::Chain chain;
    KDL::JntArray q_min, q_max, q_init, q_out;
    KDL::ChainFkSolverPos_recursive *fk;
    KDL::ChainIkSolverVel_pinv *vel;
    KDL::ChainIkSolverPos_NR_JL *nr_jl;
    KDL::ChainIkSolverPos_LMA *lma;
    // the last solve's answers
    ik_closed_solution out[8];
    ik_closed_info closed_info;
    ik_swivel_interval intervals[MAX_INTERVALS];
    int interval_count;
    ik_solve_info arm_info;
    ik_real q[MAX_JOINTS];
    int kdl_status;
};

// KDL's chain from ik.h's: joint i turns about its axis through its origin (both in the
// parent's frame), then its origin frame; the tool a fixed segment.
static void kdl_chain_make(arm_case *c)
{
    const ik_chain *ch = &c->arm.chain;
    for (int i = 0; i < ch->joint_count; i++) {
        const ik_joint *j = &ch->joints[i];
        const KDL::Frame origin = kdl_frame(j->origin);
        if (j->type == IK_JOINT_FIXED)
            c->chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), origin));
        else
            c->chain.addSegment(KDL::Segment(
                KDL::Joint(origin.p, origin.M * kdl_vector(j->axis), KDL::Joint::RotAxis), origin));
    }
    c->chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), kdl_frame(ch->tip)));
}

// The branch of the answer at pose p's swivel nearest the true state (SRS).
static int true_branch(const arm_case *c, int p)
{
    const ik_real *truth = &c->truth[(size_t)(p * c->n)];
    ik_closed_solution out[8];
    ik_closed_info info;
    double best = HUGE_VAL;
    int branch = -1;
    ik_closed_form_solve_swivel(&c->cf_pi, c->target[(size_t)p], c->swivel[(size_t)p], truth, NULL,
                                out, 8, &info);
    for (int k = 0; k < info.count; k++) {
        double gap = 0;
        for (int j = 0; j < c->n; j++)
            gap = std::max(gap, fabs((double)(out[k].q[j] - truth[j])));
        if (gap < best)
            best = gap, branch = out[k].branch;
    }
    return branch;
}

// Arm a: industrial_id a, or a == INDUSTRIAL_COUNT the iiwa 14.
static void arm_case_make(arm_case *c, int a, int poses)
{
    if (a == INDUSTRIAL_COUNT)
        arm_build(ARM_IIWA14, &c->arm);
    else
        industrial_build((industrial_id)a, &c->arm);
    ik_chain_closed_form(&c->arm.chain, &c->cf, NULL);
    c->n = c->cf.joint_count;
    c->srs = c->cf.kind == IK_CLOSED_FORM_SRS;
    const int n = c->n;
    c->cf_pi = c->cf;
    for (int j = 0; j < n; j++)
        c->cf_pi.lo[j] = -IK_PI, c->cf_pi.hi[j] = IK_PI;
    c->scratch.resize(ik_arm_scratch_size(&c->arm.chain));
    c->arm_opts = ik_default_arm_opts();
    rng_state = 1;
    c->target.resize((size_t)poses);
    c->kdl_target.resize((size_t)poses);
    c->truth.resize((size_t)(poses * n));
    c->near.resize((size_t)(poses * n));
    c->swivel.assign((size_t)poses, 0);
    c->branch.assign((size_t)poses, -1);
    for (int p = 0; p < poses; p++) {
        ik_real *q = &c->truth[(size_t)(p * n)], *near = &c->near[(size_t)(p * n)];
        for (int j = 0; j < n; j++) {
            q[j] = (ik_real)rnd(c->cf.lo[j] > -ARM_PI ? (double)c->cf.lo[j] : -ARM_PI,
                                c->cf.hi[j] < ARM_PI ? (double)c->cf.hi[j] : ARM_PI);
            near[j] = std::min(q[j] + (ik_real)0.1, c->cf.hi[j]);
        }
        ik_chain_fk(&c->arm.chain, q, NULL, &c->target[(size_t)p]);
        c->kdl_target[(size_t)p] = kdl_frame(c->target[(size_t)p]);
        if (c->srs) {
            ik_closed_form_swivel(&c->cf, q, &c->swivel[(size_t)p]);
            c->branch[(size_t)p] = true_branch(c, p);
        }
    }
    kdl_chain_make(c);
    c->q_min.resize((unsigned)n);
    c->q_max.resize((unsigned)n);
    c->q_init.resize((unsigned)n);
    c->q_out.resize((unsigned)n);
    for (int j = 0; j < n; j++) {
        c->q_min(j) = c->cf.lo[j];
        c->q_max(j) = c->cf.hi[j];
    }
    Eigen::Matrix<double, 6, 1> weights;
    weights << 1, 1, 1, 1, 1, 1;
    c->fk = new KDL::ChainFkSolverPos_recursive(c->chain);
    c->vel = new KDL::ChainIkSolverVel_pinv(c->chain);
    c->nr_jl =
        new KDL::ChainIkSolverPos_NR_JL(c->chain, c->q_min, c->q_max, *c->fk, *c->vel, 100, 1e-6);
    c->lma = new KDL::ChainIkSolverPos_LMA(c->chain, weights, 1e-6, 500);
}

static void arm_case_free(arm_case *c)
{
    delete c->lma;
    delete c->nr_jl;
    delete c->vel;
    delete c->fk;
}

// The start of pose p: zero (near false) or the true state + 0.1.
static const ik_real *start_of(const arm_case *c, int p, bool near)
{
    static const ik_real zero[MAX_JOINTS] = { 0, 0, 0, 0, 0, 0, 0 };
    return near ? &c->near[(size_t)(p * c->n)] : zero;
}

// LMA's answer moved by whole turns into the limits where it fits (as bench/kdl_solve.cpp).
static void wrap_into_limits(const arm_case *c, KDL::JntArray &q)
{
    for (int j = 0; j < c->n; j++) {
        double v = q(j), lo = c->cf.lo[j], hi = c->cf.hi[j];
        if (v < lo || v > hi) {
            v = lo + fmod(fmod(v - lo, 2 * ARM_PI) + 2 * ARM_PI, 2 * ARM_PI);
            if (v <= hi)
                q(j) = v;
        }
    }
}

// One solve of pose p by solver s; the answers stay in *c.
static void solve(arm_case *c, int s, int p, bool near)
{
    const ik_real *start = start_of(c, p, near);
    const ik_xform target = c->target[(size_t)p];
    const ik_closed_form *cf = s == CLOSED_ALL ? &c->cf_pi : &c->cf;
    if ((s == CLOSED_ALL || s == CLOSED_NEAREST) && c->srs) {
        ik_closed_form_solve_swivel(cf, target, c->swivel[(size_t)p], near ? start : NULL, NULL,
                                    c->out, 8, &c->closed_info);
    } else if (s == CLOSED_ALL || s == CLOSED_NEAREST) {
        ik_closed_form_solve(cf, target, near ? start : NULL, NULL, c->out, 8, &c->closed_info);
    } else if (s == SWIVEL_INTERVALS) {
        ik_closed_form_swivel_intervals(cf, target, c->intervals, MAX_INTERVALS,
                                        &c->interval_count);
    } else if (s == ARM_SOLVE) {
        ik_target t = ik_target_pose(target);
        memcpy(c->q, start, (size_t)c->n * sizeof *c->q);
        ik_arm_solve(&c->arm.chain, &t, &c->arm_opts, c->q, c->scratch.data(), c->scratch.size(),
                     &c->arm_info);
    } else {
        for (int j = 0; j < c->n; j++)
            c->q_init(j) = start[j];
        if (s == KDL_NR_JL) {
            c->kdl_status = c->nr_jl->CartToJnt(c->q_init, c->kdl_target[(size_t)p], c->q_out);
        } else {
            c->kdl_status = c->lma->CartToJnt(c->q_init, c->kdl_target[(size_t)p], c->q_out);
            wrap_into_limits(c, c->q_out);
        }
    }
}

// Whether ik.h's FK of q is within TOLERANCE of target, each component of the position and of
// the rotation vector from q's effector rotation to the target's.
static bool fk_meets(const arm_case *c, const ik_real *q, ik_xform target)
{
    ik_xform at;
    ik_chain_fk(&c->arm.chain, q, NULL, &at);
    ik_quat d = ik_xform_mul(target, ik_xform_inverse(at)).rot;
    if (d.w < 0)
        d.x = -d.x, d.y = -d.y, d.z = -d.z, d.w = -d.w;
    ik_vec3 r = ik_quat_to_expmap(d);
    double e[6] = {
        target.pos.x - at.pos.x, target.pos.y - at.pos.y, target.pos.z - at.pos.z, r.x, r.y, r.z
    };
    for (int k = 0; k < 6; k++)
        if (!(fabs(e[k]) <= TOLERANCE))
            return false;
    return true;
}

static bool within_limits(const arm_case *c, const ik_real *q)
{
    for (int j = 0; j < c->n; j++)
        if (!(q[j] >= c->cf.lo[j] && q[j] <= c->cf.hi[j]))
            return false;
    return true;
}

// Whether the last closed-form solve of pose p lists its true state (every joint within
// TOLERANCE).
static bool lists_truth(const arm_case *c, int p)
{
    const ik_real *truth = &c->truth[(size_t)(p * c->n)];
    for (int k = 0; k < c->closed_info.count; k++) {
        bool same = true;
        for (int j = 0; j < c->n; j++)
            same = same && fabs((double)(c->out[k].q[j] - truth[j])) <= TOLERANCE;
        if (same)
            return true;
    }
    return false;
}

// Whether the last swivel intervals of pose p hold its swivel in one of its true branch's.
static bool holds_swivel(const arm_case *c, int p)
{
    const double swivel = c->swivel[(size_t)p], slack = 1e-9;
    for (int k = 0; k < c->interval_count; k++) {
        const ik_swivel_interval *in = &c->intervals[k];
        bool inside =
            (swivel >= in->lo - slack && swivel <= in->hi + slack) ||
            (swivel + 2 * ARM_PI >= in->lo - slack && swivel + 2 * ARM_PI <= in->hi + slack);
        if (in->branch == c->branch[(size_t)p] && inside)
            return true;
    }
    return false;
}

// Whether the last solve of pose p by solver s solved it (see the top comment).
static bool solved(const arm_case *c, int s, int p)
{
    const ik_xform target = c->target[(size_t)p];
    if (s == CLOSED_ALL || s == CLOSED_NEAREST) {
        bool ok = c->closed_info.count > 0 && (!c->srs || lists_truth(c, p));
        for (int k = 0; k < c->closed_info.count; k++)
            ok = ok && fk_meets(c, c->out[k].q, target);
        return ok;
    }
    if (s == SWIVEL_INTERVALS)
        return holds_swivel(c, p);
    if (s == ARM_SOLVE)
        return c->arm_info.status == IK_STATUS_CONVERGED && fk_meets(c, c->q, target) &&
               within_limits(c, c->q);
    ik_real q[MAX_JOINTS];
    for (int j = 0; j < c->n; j++)
        q[j] = (ik_real)c->q_out(j);
    return c->kdl_status == 0 && fk_meets(c, q, target) && within_limits(c, q);
}

// The largest difference between KDL's FK and ik.h's at the true states (position and rotation
// matrix entries): the two chains agree.
static double model_gap(arm_case *c)
{
    double gap = 0;
    for (size_t p = 0; p < c->target.size(); p++) {
        ik_xform x;
        KDL::Frame f;
        const ik_real *truth = &c->truth[p * (size_t)c->n];
        ik_chain_fk(&c->arm.chain, truth, NULL, &x);
        for (int j = 0; j < c->n; j++)
            c->q_init(j) = truth[j];
        c->fk->JntToCart(c->q_init, f);
        KDL::Frame want = kdl_frame(x);
        for (int r = 0; r < 3; r++) {
            gap = std::max(gap, fabs(f.p(r) - want.p(r)));
            for (int k = 0; k < 3; k++)
                gap = std::max(gap, fabs(f.M(r, k) - want.M(r, k)));
        }
    }
    return gap;
}

struct timing {
    double median_ns, answers; // answers: the closed form's mean count (or the intervals')
    int solved;
};

// What the last solve of solver s listed: the closed form's answers, the intervals, or 1.
static int listed(const arm_case *c, int s)
{
    if (s == CLOSED_ALL || s == CLOSED_NEAREST)
        return c->closed_info.count;
    return s == SWIVEL_INTERVALS ? c->interval_count : 1;
}

// Solver s over every pose from one kind of start.
static timing time_solver(arm_case *c, int s, bool near)
{
    const int poses = (int)c->target.size();
    std::vector<double> t((size_t)poses);
    timing r = { 0, 0, 0 };
    for (int p = 0; p < poses; p++) {
        solve(c, s, p, near); // (warm-up)
        double t0 = now_ns();
        for (int k = 0; k < REPEATS; k++)
            solve(c, s, p, near);
        t[(size_t)p] = (now_ns() - t0) / REPEATS;
        r.solved += solved(c, s, p);
        r.answers += listed(c, s) / (double)poses;
    }
    std::sort(t.begin(), t.end());
    r.median_ns = t[(size_t)poses / 2];
    return r;
}

static void arm_rows(int a, int poses)
{
    static const char *const titles[ARMS] = { "UR5e",           "UR10",
                                              "ABB IRB 2400",   "Fanuc LR Mate 200iD",
                                              "KUKA KR 6 R900", "KUKA LBR iiwa 14" };
    static arm_case c;
    timing t[SOLVERS][2];
    arm_case_make(&c, a, poses);
    double gap = model_gap(&c);
    for (int i = 0; i < SOLVERS; i++) {
        const int s = row_order[i];
        if (s == SWIVEL_INTERVALS && !c.srs)
            continue;
        for (int near = 0; near < 2; near++)
            t[s][near] = time_solver(&c, s, near != 0);
        printf("| %s | %s", s == CLOSED_ALL ? titles[a] : "",
               c.srs && s <= CLOSED_NEAREST ? srs_solver_names[s] : solver_names[s]);
        for (int near = 0; near < 2; near++) {
            const timing *r = &t[s][near];
            printf(" | %.0f | %.1f | %.1f%%", r->median_ns,
                   r->median_ns / t[CLOSED_ALL][near].median_ns, 100.0 * r->solved / poses);
            if (s <= CLOSED_NEAREST || s == SWIVEL_INTERVALS)
                printf(" (%.2f)", r->answers);
        }
        printf(" |\n");
    }
    if (gap > 1e-12)
        printf("(%s: KDL's FK and ik.h's differ by %.1e)\n", titles[a], gap);
    arm_case_free(&c);
    c.chain = KDL::Chain();
}

// extern "C", not inlined: the function callgrind's --toggle-collect names.
extern "C" __attribute__((noinline)) void count_solve(arm_case *c, int s, int p, bool near)
{
    solve(c, s, p, near);
}

// --calls=A,S,K,N: see the top comment.
static int calls(const char *spec)
{
    static arm_case c;
    int a, s, near, n;
    if (sscanf(spec, "%d,%d,%d,%d", &a, &s, &near, &n) != 4 || a < 0 || a >= ARMS || s < 0 ||
        s > SWIVEL_INTERVALS || (s == SWIVEL_INTERVALS && a != INDUSTRIAL_COUNT) || n < 0)
        return 2;
    arm_case_make(&c, a, 256);
    for (int i = 0; i < n; i++)
        count_solve(&c, s, i % 256, near != 0);
    arm_case_free(&c);
    return 0;
}

int main(int argc, char **argv)
{
    int poses = 1000;
    if (argc == 2 && strncmp(argv[1], "--calls=", 8) == 0)
        return calls(argv[1] + 8);
    if (argc == 3 && strcmp(argv[1], "--poses") == 0)
        poses = atoi(argv[2]);
    else if (argc != 1)
        poses = 0;
    if (poses < 1) {
        fprintf(stderr, "usage: kdl_closed [--poses N] | --calls=A,S,K,N\n");
        return 2;
    }
    printf("%d random poses per arm; median ns per solve; / closed form: that median over the "
           "first row's; solved: to %g (m, rad) by ik.h's FK, within the arm's limits (the "
           "closed form's mean answers, or intervals, in brackets)\n\n",
           poses, TOLERANCE);
    printf("| arm | solver | zero start: ns | / closed form | solved | near start: ns | / closed "
           "form | solved |\n");
    printf("|---|---|--:|--:|--:|--:|--:|--:|\n");
    for (int a = 0; a < ARMS; a++)
        arm_rows(a, poses);
    return 0;
}
