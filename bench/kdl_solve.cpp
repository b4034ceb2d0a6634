/* kdl_solve - the Orocos KDL side of the arm benchmark: solves the same problem files as
   bench/ik_solve with KDL 1.5 (Debian's liborocos-kdl-dev) and writes the same rows,
   id,status,q0..q{n-1},time_ns (status: KDL's return code). The chain file's segments become
   KDL Segments: Segment(Joint(RotX|RotY|RotZ|None), Frame(Rotation(r), Vector(p))).
   Usage: kdl_solve CHAIN.csv PROBLEMS.csv --solver lma|nrjl|lma-restarts [options] > OUT.csv
     lma            ChainIkSolverPos_LMA, equal task weights (position only: rotation weights 0);
                    its answer moved by whole turns into the limits where that fits
     nrjl           ChainIkSolverPos_NR_JL with ChainIkSolverVel_pinv (not for position only)
     lma-restarts   LMA from the seed, then from random states within the limits until an
                    answer within the limits converges or the budget runs out
     --position-only, --seeds given|random, --budget-ms T (default 5), --rng S, --problems N
     --tol E (default 1e-5: the protocol's, as KDL's eps) */
#include "arm_csv.h"
#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#include <string>
#include <time.h>
#include <vector>

static double now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int usage()
{
    fprintf(stderr, "usage: kdl_solve CHAIN.csv PROBLEMS.csv --solver lma|nrjl|lma-restarts "
                    "[--position-only] [--seeds given|random] [--budget-ms T] [--rng S] "
                    "[--problems N] [--tol E]\n");
    return 2;
}

// LMA knows no limits: a revolute joint's answer outside them is moved by whole turns into
// them where it fits (the same pose), as any user of LMA would do
static void wrap_into_limits(const csv_chain &c, KDL::JntArray &q)
{
    const double turn = 2 * 3.14159265358979323846;
    for (int i = 0, j = 0; i < c.count; i++)
        if (c.seg[i].axis >= 0) {
            double v = q(j), lo = c.seg[i].lo, hi = c.seg[i].hi;
            if (v < lo || v > hi) {
                v = lo + fmod(fmod(v - lo, turn) + turn, turn);
                if (v <= hi)
                    q(j) = v;
            }
            j++;
        }
}

static bool within_limits(const csv_chain &c, const KDL::JntArray &q)
{
    for (int i = 0, j = 0; i < c.count; i++)
        if (c.seg[i].axis >= 0) {
            if (!(q(j) >= c.seg[i].lo && q(j) <= c.seg[i].hi))
                return false;
            j++;
        }
    return true;
}

int main(int argc, char **argv)
{
    static csv_chain c;
    csv_problems p;
    std::string solver;
    bool position_only = false, random_seeds = false;
    double budget_ms = 5, tol = 1e-5;
    unsigned long long rng = 1;
    int max = 0;
    if (argc < 3)
        return usage();
    for (int i = 3; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--solver" && i + 1 < argc)
            solver = argv[++i];
        else if (a == "--position-only")
            position_only = true;
        else if (a == "--seeds" && i + 1 < argc)
            random_seeds = std::string(argv[++i]) == "random";
        else if (a == "--budget-ms" && i + 1 < argc)
            budget_ms = atof(argv[++i]);
        else if (a == "--rng" && i + 1 < argc)
            rng = strtoull(argv[++i], NULL, 10);
        else if (a == "--problems" && i + 1 < argc)
            max = atoi(argv[++i]);
        else if (a == "--tol" && i + 1 < argc)
            tol = atof(argv[++i]);
        else
            return usage();
    }
    if (solver != "lma" && solver != "nrjl" && solver != "lma-restarts")
        return usage();
    if (solver == "nrjl" && position_only) {
        fprintf(stderr, "kdl_solve: NR_JL solves full poses only\n");
        return 2;
    }
    if (csv_read_chain(argv[1], &c) != 0 || csv_read_problems(argv[2], c.dof, max, &p) != 0)
        return 1;

    KDL::Chain chain;
    for (int i = 0; i < c.count; i++) {
        const csv_segment &g = c.seg[i];
        KDL::Joint::JointType t = g.axis == 0   ? KDL::Joint::RotX
                                  : g.axis == 1 ? KDL::Joint::RotY
                                  : g.axis == 2 ? KDL::Joint::RotZ
                                                : KDL::Joint::None;
        KDL::Rotation r(g.r[0], g.r[1], g.r[2], g.r[3], g.r[4], g.r[5], g.r[6], g.r[7], g.r[8]);
        chain.addSegment(
            KDL::Segment(KDL::Joint(t), KDL::Frame(r, KDL::Vector(g.p[0], g.p[1], g.p[2]))));
    }
    int dof = (int)chain.getNrOfJoints();
    KDL::JntArray qmin(dof), qmax(dof), q0(dof), q(dof);
    for (int i = 0, j = 0; i < c.count; i++)
        if (c.seg[i].axis >= 0) {
            qmin(j) = c.seg[i].lo;
            qmax(j) = c.seg[i].hi;
            j++;
        }
    Eigen::Matrix<double, 6, 1> L;
    L << 1, 1, 1, 1, 1, 1;
    if (position_only)
        L << 1, 1, 1, 0, 0, 0;
    KDL::ChainIkSolverPos_LMA lma(chain, L, tol);
    KDL::ChainFkSolverPos_recursive fk(chain);
    KDL::ChainIkSolverVel_pinv vel(chain);
    KDL::ChainIkSolverPos_NR_JL nrjl(chain, qmin, qmax, fk, vel, 100, tol);

    printf("id,status");
    for (int k = 0; k < dof; k++)
        printf(",q%d", k);
    printf(",time_ns\n");
    for (int i = 0; i < p.count; i++) {
        const double *pose = p.pose + (size_t)i * 16;
        KDL::Frame target(KDL::Rotation(pose[3], pose[4], pose[5], pose[6], pose[7], pose[8],
                                        pose[9], pose[10], pose[11]),
                          KDL::Vector(pose[0], pose[1], pose[2]));
        unsigned long long srng = rng + (unsigned long long)p.id[i];
        for (int k = 0; k < dof; k++)
            q0(k) = random_seeds ? csv_rng_uniform(&srng, qmin(k), qmax(k))
                                 : p.seed[(size_t)i * (size_t)dof + (size_t)k];
        int rc;
        double t0 = now_ns();
        if (solver == "lma") {
            rc = lma.CartToJnt(q0, target, q);
            wrap_into_limits(c, q);
        } else if (solver == "nrjl") {
            rc = nrjl.CartToJnt(q0, target, q);
        } else {
            double deadline = t0 + budget_ms * 1e6;
            rc = lma.CartToJnt(q0, target, q);
            wrap_into_limits(c, q);
            while (!(rc == 0 && within_limits(c, q)) && now_ns() < deadline) {
                for (int k = 0; k < dof; k++)
                    q0(k) = csv_rng_uniform(&srng, qmin(k), qmax(k));
                rc = lma.CartToJnt(q0, target, q);
                wrap_into_limits(c, q);
            }
        }
        double t1 = now_ns();
        printf("%d,%d", p.id[i], rc);
        for (int k = 0; k < dof; k++)
            printf(",%.17g", q(k));
        printf(",%.0f\n", t1 - t0);
    }
    csv_free_problems(&p);
    return 0;
}
