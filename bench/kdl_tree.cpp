/* kdl_tree - ik.h's ik_skeleton_solve() against Orocos KDL 1.5's TreeIkSolverPos_NR_JL with
   TreeIkSolverVel_wdls (Debian's liborocos-kdl-dev) on the humanoid of bench/humanoid.h, the
   same problems in the same run, one table (make bench-kdl-tree; bench/kdl_tree.sh).
   Usage: kdl_tree [--problems N] [--lambda L] [--flat] [--free-balls]

   The KDL tree is made from the same joint data: each ik.h joint becomes segments hung from its
   parent's last segment: a hinge a RotAxis segment (axis and origin as ik.h's), a prismatic
   joint a TransAxis one, a fixed joint a fixed one; a ball joint, which KDL has not, three
   revolute segments about its frame's x, y and z axes (Euler angles x-y-z, the state converted
   to and from ik.h's exponential maps by the rotation they make). The floating pelvis is ik.h's
   ik_joints_floating_root() on both sides: three prismatic joints and a ball, so KDL's root is
   3 TransAxis + 3 RotAxis segments. Each effector is a fixed segment at its offset from its
   joint, an endpoint of KDL's solver. Limits: KDL gets ik.h's hinge limits (elbows, knees,
   clavicles, toes) and clamps to them as ik.h does; it cannot hold ik.h's ball-joint cones, so
   its Euler angles are free (a wider space than ik.h's, which keeps every cone). --free-balls
   takes the cones off ik.h's balls too: both sides then solve within the same limits.

   Problems: the targets are the effectors' frames at a random state within ik.h's limits
   (bench/skeleton_cases.h; seed i + 1, as bench --skeleton), all five as full poses (KDL's tree
   solver takes frames only: the head's target is its pose, not bench --skeleton's aim). Starts:
   that state with every value moved by up to 0.1 (rad or m) into the limits ("near"), or a
   random state within the limits ("random", one attempt, no restarts); the same start for both
   (KDL's Euler angles made from ik.h's rotations). Solved: every effector within 1e-5 m and
   1e-5 rad of its target, measured by ik_skeleton_fk() at each answer (KDL's converted to ik.h's
   state; the conversion is checked against KDL's own FK at the start). ik.h: DLS, default
   options but tolerances 1e-5 m and rad, the humanoid's priorities (feet 0, hands and head 1;
   --flat: all 0). KDL: 100 iterations, eps 1e-5 (its stop: the norm of the stacked twist
   errors), wdls damping lambda (--lambda, default 0.001: KDL's default 0 divides by the zero
   singular values of its 30 x 55 Jacobian; of 1e-4, 1e-3 and 1e-2, 1e-3 gave KDL its best
   times and rates), identity weights. Times: one solve each, the
   solver objects made beforehand. */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "humanoid.h"
#include "skeleton_cases.h"
#include <algorithm>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl/treeiksolverpos_nr_jl.hpp>
#include <kdl/treeiksolvervel_wdls.hpp>
#include <string>
#include <vector>

static double now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
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

// The humanoid as a KDL tree with its effectors as endpoints "e0".."e4", and each KDL joint's
// limits.
struct kdl_body {
    KDL::Tree tree;
    std::vector<std::string> endpoints;
    std::vector<double> lo, hi;
};

static std::string joint_name(int i)
{
    return i < 0 ? "root" : "j" + std::to_string(i);
}

// Joint i's segments, hung from its parent's last segment (named joint_name(i)).
static void add_joint(kdl_body *b, const ik_joint *j, int i, int parent)
{
    const KDL::Frame origin = kdl_frame(j->origin);
    const KDL::Vector axis = origin.M * kdl_vector(j->axis), at = kdl_vector(j->origin.pos);
    const std::string name = joint_name(i), hook = joint_name(parent);
    if (j->type == IK_JOINT_BALL) { // x, y, z: the first at the origin, the others in place
        b->tree.addSegment(
            KDL::Segment(name + "x",
                         KDL::Joint(at, origin.M * KDL::Vector(1, 0, 0), KDL::Joint::RotAxis),
                         origin),
            hook);
        b->tree.addSegment(KDL::Segment(name + "y", KDL::Joint(KDL::Joint::RotY)), name + "x");
        b->tree.addSegment(KDL::Segment(name, KDL::Joint(KDL::Joint::RotZ)), name + "y");
        for (int k = 0; k < 3; k++) {
            b->lo.push_back(-HUGE_VAL);
            b->hi.push_back(HUGE_VAL);
        }
        return;
    }
    if (j->type == IK_JOINT_FIXED) {
        b->tree.addSegment(KDL::Segment(name, KDL::Joint(KDL::Joint::None), origin), hook);
        return;
    }
    b->tree.addSegment(
        KDL::Segment(
            name,
            KDL::Joint(at, axis,
                       j->type == IK_JOINT_REVOLUTE ? KDL::Joint::RotAxis : KDL::Joint::TransAxis),
            origin),
        hook);
    b->lo.push_back(j->lo);
    b->hi.push_back(j->hi);
}

static void build_kdl(const ik_skeleton *s, const ik_effector *e, int count, kdl_body *b)
{
    for (int i = 0; i < s->joint_count; i++)
        add_joint(b, &s->joints[i], i, s->parents ? s->parents[i] : i - 1);
    for (int k = 0; k < count; k++) {
        std::string name = "e" + std::to_string(k);
        b->tree.addSegment(KDL::Segment(name, KDL::Joint(KDL::Joint::None), kdl_frame(e[k].offset)),
                           joint_name(e[k].joint));
        b->endpoints.push_back(name);
    }
}

// ik.h's state q as KDL's joint values (balls: x-y-z Euler angles of the same rotation).
static void to_kdl(const ik_skeleton *s, const ik_real *q, KDL::JntArray &out)
{
    int c = 0, k = 0;
    for (int i = 0; i < s->joint_count; i++) {
        const ik_joint *j = &s->joints[i];
        if (j->type == IK_JOINT_BALL) {
            ik_mat3 m =
                ik_quat_to_mat3(ik_quat_from_expmap(ik_vec3_make(q[c], q[c + 1], q[c + 2])));
            double sb = std::max(-1.0, std::min(1.0, (double)m.m[0][2]));
            out(k) = atan2(-(double)m.m[1][2], (double)m.m[2][2]);
            out(k + 1) = asin(sb);
            out(k + 2) = atan2(-(double)m.m[0][1], (double)m.m[0][0]);
            c += 3, k += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            out(k++) = q[c++];
        }
    }
}

// KDL's joint values as ik.h's state (balls: the exponential map of the Euler angles' rotation).
static void from_kdl(const ik_skeleton *s, const KDL::JntArray &in, ik_real *q)
{
    int c = 0, k = 0;
    for (int i = 0; i < s->joint_count; i++) {
        const ik_joint *j = &s->joints[i];
        if (j->type == IK_JOINT_BALL) {
            ik_quat r = ik_quat_mul(
                ik_quat_mul(ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), (ik_real)in(k)),
                            ik_quat_from_axis_angle(ik_vec3_make(0, 1, 0), (ik_real)in(k + 1))),
                ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), (ik_real)in(k + 2)));
            ik_vec3 v = ik_quat_to_expmap(r);
            q[c] = v.x, q[c + 1] = v.y, q[c + 2] = v.z;
            c += 3, k += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            q[c++] = (ik_real)in(k++);
        }
    }
}

// The largest distance between KDL's effector frames at state q and ik.h's (position, and the
// rotation's largest matrix entry difference): the two models agree.
static double model_gap(const ik_skeleton *s, const ik_effector *e, int count,
                        KDL::TreeFkSolverPos_recursive &fk, const ik_real *q, int kdl_dof)
{
    ik_xform frames[SKC_MAX_JOINTS];
    KDL::JntArray qk(kdl_dof);
    double gap = 0;
    ik_skeleton_fk(s, q, frames);
    to_kdl(s, q, qk);
    for (int k = 0; k < count; k++) {
        KDL::Frame f, want = kdl_frame(skc_effector_frame(frames, &e[k]));
        fk.JntToCart(qk, f, "e" + std::to_string(k));
        for (int r = 0; r < 3; r++) {
            gap = std::max(gap, fabs(f.p(r) - want.p(r)));
            for (int c = 0; c < 3; c++)
                gap = std::max(gap, fabs(f.M(r, c) - want.M(r, c)));
        }
    }
    return gap;
}

// The command line's choices.
struct options {
    int problems = 1000;
    double lambda = 0.001;
    bool flat = false, free_balls = false;
};

static bool parse_args(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--problems" && i + 1 < argc)
            o->problems = atoi(argv[++i]);
        else if (a == "--lambda" && i + 1 < argc)
            o->lambda = atof(argv[++i]);
        else if (a == "--flat")
            o->flat = true;
        else if (a == "--free-balls")
            o->free_balls = true;
        else
            return false;
    }
    return o->problems > 0;
}

// KDL's limits: its joints' lo (hi false) or hi values.
static KDL::JntArray kdl_limits(const kdl_body &b, bool hi)
{
    KDL::JntArray q((unsigned)b.lo.size());
    for (size_t k = 0; k < b.lo.size(); k++)
        q((unsigned)k) = hi ? b.hi[k] : b.lo[k];
    return q;
}

// Both solvers on the humanoid: ik.h's skeleton h (its balls free with --free-balls), the
// problems drawn on lim (always with the cones), and KDL's tree made from h.
struct comparison {
    humanoid h, lim;
    ik_effector e[HUMANOID_EFFECTORS];
    ik_jacobian_opts opts;
    std::vector<unsigned char> scratch;
    kdl_body b;
    KDL::JntArray q_min, q_max;
    KDL::TreeFkSolverPos_recursive *fk = nullptr;
    KDL::TreeIkSolverVel_wdls *vel = nullptr;
    KDL::TreeIkSolverPos_NR_JL *kdl = nullptr;
};

static void comparison_make(comparison *c, const options &o)
{
    ik_xform none[2] = { ik_xform_identity(), ik_xform_identity() };
    humanoid_build(&c->h);
    humanoid_build(&c->lim);
    for (int i = 0; o.free_balls && i < HUMANOID_JOINTS; i++)
        c->h.joints[i].limit = NULL;
    humanoid_effectors(&c->h, none, none, ik_vec3_make(0, 0, 1), c->e);
    for (int k = 0; k < HUMANOID_EFFECTORS; k++) {
        c->e[k].kind = IK_EFFECTOR_POSE; // (the head too: KDL solves frames)
        c->e[k].priority = o.flat ? 0 : c->e[k].priority;
    }
    c->opts = ik_default_jacobian_opts();
    c->opts.tolerance = c->opts.rotation_tolerance = (ik_real)1e-5;
    c->scratch.resize(ik_skeleton_scratch_size(&c->h.skeleton, c->e, HUMANOID_EFFECTORS));
    build_kdl(&c->h.skeleton, c->e, HUMANOID_EFFECTORS, &c->b);
    c->q_min = kdl_limits(c->b, false);
    c->q_max = kdl_limits(c->b, true);
    c->fk = new KDL::TreeFkSolverPos_recursive(c->b.tree);
    c->vel = new KDL::TreeIkSolverVel_wdls(c->b.tree, c->b.endpoints);
    c->vel->setLambda(o.lambda);
    c->kdl = new KDL::TreeIkSolverPos_NR_JL(c->b.tree, c->b.endpoints, c->q_min, c->q_max, *c->fk,
                                            *c->vel, 100, 1e-5);
}

struct side_result {
    std::vector<double> ns;
    int solved = 0, within = 0; // within: solved and within humanoid.h's limits (the cones too)
};

// One side's answer q scored: met, and met within the cones.
static void score(const comparison &c, const ik_real *q, side_result *r)
{
    bool met = skc_met(&c.h.skeleton, q, c.e, HUMANOID_EFFECTORS, 1e-5, 1e-5);
    r->solved += met;
    r->within += met && skc_within_limits(&c.lim.skeleton, q);
}

// Problem i (mode 0 near, 1 random start) solved by both from the same start; the models' gap
// at that start (the first 100 problems), or 0.
static double solve_both(comparison *c, int i, int mode, side_result *ik, side_result *kd)
{
    const ik_skeleton *s = &c->h.skeleton;
    const int kdl_dof = (int)c->b.tree.getNrOfJoints();
    unsigned long long draw = (unsigned long long)i + 1, restarts = 1000003ull * (unsigned)i + 1;
    ik_real truth[HUMANOID_DOF], q[HUMANOID_DOF], start[HUMANOID_DOF];
    KDL::JntArray q_init(kdl_dof), q_out(kdl_dof);
    KDL::Frames goals;
    skc_random_state(&c->lim.skeleton, &draw, 0.5, truth);
    skc_targets_at(s, truth, c->e, HUMANOID_EFFECTORS);
    memcpy(start, truth, sizeof start);
    if (mode == 0)
        skc_perturb(&c->lim.skeleton, &draw, 0.1, start);
    else
        skc_random_state(&c->lim.skeleton, &restarts, 0.5, start);
    memcpy(q, start, sizeof q);
    double t0 = now_ns();
    ik_skeleton_solve(s, c->e, HUMANOID_EFFECTORS, &c->opts, q, c->scratch.data(),
                      c->scratch.size(), NULL, NULL);
    ik->ns.push_back(now_ns() - t0);
    score(*c, q, ik);
    for (int k = 0; k < HUMANOID_EFFECTORS; k++) // (the targets as frames by endpoint name)
        goals["e" + std::to_string(k)] =
            kdl_frame(ik_xform_make(c->e[k].target_rot, c->e[k].target));
    to_kdl(s, start, q_init);
    t0 = now_ns();
    c->kdl->CartToJnt(q_init, goals, q_out);
    kd->ns.push_back(now_ns() - t0);
    from_kdl(s, q_out, q);
    score(*c, q, kd);
    return i < 100 ? model_gap(s, c->e, HUMANOID_EFFECTORS, *c->fk, start, kdl_dof) : 0;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// The table's row for one kind of start.
static void run_mode(comparison *c, int mode, int problems)
{
    side_result ik, kd;
    double worst_gap = 0;
    for (int i = 0; i < problems; i++)
        worst_gap = std::max(worst_gap, solve_both(c, i, mode, &ik, &kd));
    double mi = median(ik.ns), mk = median(kd.ns);
    printf("| %s | %.1f | %.1f | %.1f | %.2f%% | %.2f%% | %.2f%% | %.2f%% |\n",
           mode == 0 ? "near (the state + up to 0.1 per value)" : "random (one attempt)", mi / 1000,
           mk / 1000, mk / mi, 100.0 * ik.solved / problems, 100.0 * kd.solved / problems,
           100.0 * ik.within / problems, 100.0 * kd.within / problems);
    if (worst_gap > 1e-9)
        printf("(the models disagree by %.1e at a start)\n", worst_gap);
}

int main(int argc, char **argv)
{
    static comparison c;
    options o;
    ik_real rest[HUMANOID_DOF];
    if (!parse_args(argc, argv, &o)) {
        fprintf(stderr, "usage: kdl_tree [--problems N] [--lambda L] [--flat] [--free-balls]\n");
        return 2;
    }
    comparison_make(&c, o);
    humanoid_rest(&c.h, rest);
    printf("humanoid of bench/humanoid.h: 27 joints, ik.h %d values, KDL %d joints (balls as 3 "
           "hinges); 5 full-pose effectors; %d problems per start; KDL lambda %g; ik.h "
           "priorities %s; ik.h's balls %s\n",
           HUMANOID_DOF, (int)c.b.tree.getNrOfJoints(), o.problems, o.lambda,
           o.flat ? "all 0" : "feet 0, hands and head 1",
           o.free_balls ? "free (--free-balls), as KDL's" : "within their cones (KDL's free)");
    printf("models agree: effector frames at the rest state within %.1e (FK of ik.h and KDL)\n\n",
           model_gap(&c.h.skeleton, c.e, HUMANOID_EFFECTORS, *c.fk, rest,
                     (int)c.b.tree.getNrOfJoints()));
    printf("| start | ik.h us per solve (median) | KDL NR_JL + wdls us (median) | KDL / ik.h | "
           "ik.h solved | KDL solved | solved within humanoid.h's cones: ik.h | KDL |\n");
    printf("|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (int mode = 0; mode < 2; mode++)
        run_mode(&c, mode, o.problems);
    delete c.kdl;
    delete c.vel;
    delete c.fk;
    return 0;
}
