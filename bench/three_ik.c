/* ik.h's FABRIK beside THREE.IK (bench/three_ik.sh): writes the problems to FILE (lines "n x y z")
   and prints ik.h's row per chain, measured as bench/three-ik/bench.mjs measures THREE.IK: chains
   of n free ball joints, links of 1/n along +y from the origin, every problem from the straight
   pose; the share solved to 1e-5 within 100 iterations, the median iterations of those solved,
   and the median over problems of the time of 20 iterations from the straight pose over 20
   (ik_fabrik_solve with a tolerance of 0: its setup included, as THREE.IK has none to leave
   out). Targets: uniform directions, distances from the origin uniform in [0.1, 0.95].
   Usage: three_ik FILE [PROBLEMS]   Ends "N passed, N failed" on nothing: it only measures. */
#define _POSIX_C_SOURCE 199309L
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAXN  100
#define TIMED 20
#define TOL   1e-5

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double rnd(unsigned long long *s) // [0, 1)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n > 0 ? v[(n - 1) / 2] : -1;
}

// A random target: a uniform direction, at a distance uniform in [0.1, 0.95].
static ik_vec3 random_target(unsigned long long *s)
{
    double z = 2 * rnd(s) - 1, a = 2 * 3.14159265358979 * rnd(s), r = 0.1 + 0.85 * rnd(s);
    double xy = sqrt(1 - z * z);
    return ik_vec3_make((ik_real)(r * xy * cos(a)), (ik_real)(r * z), (ik_real)(r * xy * sin(a)));
}

int main(int argc, char **argv)
{
    static const int sizes[4] = { 3, 7, 20, 100 };
    static ik_joint joints[MAXN];
    static ik_real q[3 * MAXN];
    static unsigned char scratch[1 << 20];
    static double ns[100000], its[100000];
    int problems = argc > 2 ? atoi(argv[2]) : 1000, k, i, p;
    FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (!f || problems < 1 || problems > 100000) {
        fprintf(stderr, "usage: three_ik FILE [PROBLEMS <= 100000]\n");
        return 2;
    }
    for (k = 0; k < 4; k++) {
        const int n = sizes[k];
        unsigned long long s = 1000003ull * (unsigned)n + 7;
        ik_fabrik_opts solve = ik_default_fabrik_opts(), timed = solve;
        ik_chain chain;
        int solved = 0;
        for (i = 0; i < n; i++)
            joints[i] = ik_joint_ball(
                ik_xform_translation(ik_vec3_make(0, i == 0 ? 0 : (ik_real)(1.0 / n), 0)));
        chain =
            ik_chain_make(joints, n, ik_xform_translation(ik_vec3_make(0, (ik_real)(1.0 / n), 0)));
        solve.max_iterations = 100;
        solve.tolerance = (ik_real)TOL;
        timed.max_iterations = TIMED;
        timed.tolerance = 0;
        timed.min_improvement = 0;
        for (p = 0; p < problems; p++) {
            ik_target t = ik_target_position(random_target(&s));
            ik_solve_info info;
            double t0;
            fprintf(f, "%d %.17g %.17g %.17g\n", n, (double)t.pos.x, (double)t.pos.y,
                    (double)t.pos.z);
            for (i = 0; i < 3 * n; i++)
                q[i] = 0;
            if (ik_fabrik_solve(&chain, &t, &solve, q, scratch, sizeof scratch, &info, NULL) !=
                IK_OK)
                return 1;
            if (info.status == IK_STATUS_CONVERGED)
                its[solved++] = info.iterations;
            for (i = 0; i < 3 * n; i++)
                q[i] = 0;
            t0 = now_ns();
            ik_fabrik_solve(&chain, &t, &timed, q, scratch, sizeof scratch, &info, NULL);
            ns[p] = (now_ns() - t0) / (info.iterations > 0 ? info.iterations : 1);
        }
        printf("ik.h %d %d %d %g %.1f\n", n, problems, solved, median(its, solved),
               median(ns, problems));
    }
    fclose(f);
    return 0;
}
