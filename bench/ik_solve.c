/* ik_solve - solves a problem file with ik.h's ik_arm_solve() and writes one row per problem:
   id,status,q0..q{n-1},time_ns (status: ik_status_string(), or the ik_result error). Formats:
   bench/arm_csv.h. Check the answers with your own FK, or with bench/arm_report.
   Usage: ik_solve CHAIN.csv PROBLEMS.csv [options] > RESULTS.csv
     --position-only    position targets (the file's rotation is ignored)
     --seeds given|random  start from the file's seeds (default) or from states drawn uniformly
                        within the limits (splitmix64 from --rng)
     --budget-ms T      time budget per problem for restarts (default 5; 0: none)
     --attempts N       most attempts per problem (default 100000: the budget decides)
     --iterations N     most iterations per attempt (default: ik_default_arm_opts())
     --probe N E        abandon restarts farther than E (fraction of reach) after N iterations
                        (default: ik_default_arm_opts(); --probe 0 0: never)
     --tol E            position and rotation tolerance (default 1e-5, the protocol's)
     --rng S            random seed (default 1); problem i's restarts use S + i
     --problems N       only the first N problems */
#define _POSIX_C_SOURCE 199309L
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "arm_csv.h"
#include "arm_chain.h"
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// the stop callback: past the deadline (ns on CLOCK_MONOTONIC)
static bool past_deadline(void *user)
{
    return now_ns() >= *(const double *)user;
}

static int usage(void)
{
    fprintf(stderr, "usage: ik_solve CHAIN.csv PROBLEMS.csv [--position-only] [--seeds "
                    "given|random] [--budget-ms T] [--attempts N] [--iterations N] [--tol E] "
                    "[--rng S] [--problems N]\n");
    return 2;
}

int main(int argc, char **argv)
{
    static csv_chain c;
    csv_problems p;
    ik_joint joints[CSV_MAX_SEGMENTS];
    ik_chain chain;
    ik_arm_opts o = ik_default_arm_opts();
    o.max_attempts = 100000; // the time budget decides (--attempts to change)
    bool position_only = false, random_seeds = false;
    double budget_ms = 5, tol = 1e-5;
    unsigned long long rng = 1;
    int i, k, max = 0, dof;
    void *scratch;
    size_t ssize;
    if (argc < 3)
        return usage();
    for (i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--position-only"))
            position_only = true;
        else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            random_seeds = !strcmp(argv[++i], "random");
        else if (!strcmp(argv[i], "--budget-ms") && i + 1 < argc)
            budget_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--attempts") && i + 1 < argc)
            o.max_attempts = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
            o.jacobian.max_iterations = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--probe") && i + 2 < argc) {
            o.probe_iterations = atoi(argv[++i]);
            o.probe_error = (ik_real)atof(argv[++i]);
        } else if (!strcmp(argv[i], "--tol") && i + 1 < argc)
            tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--rng") && i + 1 < argc)
            rng = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--problems") && i + 1 < argc)
            max = atoi(argv[++i]);
        else
            return usage();
    }
    o.jacobian.tolerance = (ik_real)tol;
    o.jacobian.rotation_tolerance = (ik_real)tol;
    if (csv_read_chain(argv[1], &c) != 0 || csv_read_problems(argv[2], c.dof, max, &p) != 0)
        return 1;
    chain = arm_chain_from_csv(&c, joints);
    dof = ik_chain_dof(&chain);
    if (dof != c.dof) {
        fprintf(stderr, "%s: not a chain ik.h accepts\n", argv[1]);
        return 1;
    }
    ssize = ik_arm_scratch_size(&chain);
    scratch = malloc(ssize);
    printf("id,status");
    for (k = 0; k < dof; k++)
        printf(",q%d", k);
    printf(",time_ns\n");
    for (i = 0; i < p.count; i++) {
        const double *pose = p.pose + (size_t)i * 16;
        ik_real q[CSV_MAX_SEGMENTS];
        ik_mat3 m;
        ik_target t;
        ik_solve_info info;
        ik_result r;
        double t0, t1, deadline;
        unsigned long long srng = rng + (unsigned long long)p.id[i];
        for (k = 0; k < 9; k++)
            m.m[k / 3][k % 3] = (ik_real)pose[3 + k];
        t = ik_target_pose(
            ik_xform_make(ik_quat_from_mat3(m),
                          ik_vec3_make((ik_real)pose[0], (ik_real)pose[1], (ik_real)pose[2])));
        t.use_rotation = !position_only;
        for (k = 0; k < dof; k++)
            q[k] = random_seeds
                       ? (ik_real)csv_rng_uniform(&srng, (double)joints[k].lo, (double)joints[k].hi)
                       : (ik_real)p.seed[(size_t)i * (size_t)dof + (size_t)k];
        o.random_seed = ~(rng + (unsigned long long)p.id[i]); // not the stream of the seeds
        t0 = now_ns();
        deadline = t0 + budget_ms * 1e6;
        o.stop = budget_ms > 0 ? past_deadline : NULL;
        o.stop_user = &deadline;
        r = ik_arm_solve(&chain, &t, &o, q, scratch, ssize, &info);
        t1 = now_ns();
        printf("%d,%s", p.id[i], r == IK_OK ? ik_status_string(info.status) : ik_result_string(r));
        for (k = 0; k < dof; k++)
            printf(",%.17g", (double)q[k]);
        printf(",%.0f\n", t1 - t0);
    }
    free(scratch);
    csv_free_problems(&p);
    return 0;
}
