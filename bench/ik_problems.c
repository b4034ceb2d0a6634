/* ik_problems - writes the arm benchmark's chain files and problem files (the TRAC-IK protocol).
   For every arm of bench/arms.h: DIR/chains/NAME.csv (the segment format of arm_csv.h) and
   DIR/problems/NAME_random.csv, DIR/problems/NAME_near.csv: N joint states drawn uniformly
   within the limits (splitmix64 from --seed), targets = their forward kinematics (the plain
   4 x 4 matrix FK of arm_csv.h on the written chain file's numbers); seeds uniform within the
   limits (random) or the true state plus 0.1 rad uniform noise per joint, clamped (near).
   Usage: ik_problems [--problems N] [--seed S] [--chains DIR] [--out DIR] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "arm_csv.h"
#include "arm_chain.h"
#include "arms.h"

static void write_problems(const char *path, const csv_chain *c, int n, unsigned long long seed,
                           int near, const char *name)
{
    FILE *f = fopen(path, "w");
    double q[CSV_MAX_SEGMENTS], s[CSV_MAX_SEGMENTS], m[16], r[9];
    unsigned long long rng = seed, rng_seed = seed ^ 0x5eedull;
    int i, j, k, dof = c->dof;
    if (!f) {
        fprintf(stderr, "%s: cannot write\n", path);
        exit(1);
    }
    fprintf(f, "# %s, %d problems, %s seeds, states from splitmix64 seed %llu\n", name, n,
            near ? "near (true + 0.1 rad noise, clamped)" : "random (uniform in limits)", seed);
    fprintf(f, "id");
    for (k = 0; k < 2 * dof; k++)
        fprintf(f, ",%s%d", k < dof ? "qtrue" : "seed", k % dof);
    fprintf(f, ",px,py,pz,r00,r01,r02,r10,r11,r12,r20,r21,r22,qx,qy,qz,qw\n");
    for (i = 0; i < n; i++) {
        double tr, qw, qx, qy, qz;
        for (j = 0, k = 0; k < c->count; k++) {
            const csv_segment *g = &c->seg[k];
            if (g->axis < 0)
                continue;
            q[j] = csv_rng_uniform(&rng, g->lo, g->hi);
            j++;
        }
        // the seeds come from their own stream: both files share the targets
        for (j = 0, k = 0; k < c->count; k++) {
            const csv_segment *g = &c->seg[k];
            double v;
            if (g->axis < 0)
                continue;
            if (near) {
                v = q[j] + csv_rng_uniform(&rng_seed, -0.1, 0.1);
                v = v < g->lo ? g->lo : v > g->hi ? g->hi : v;
            } else {
                v = csv_rng_uniform(&rng_seed, g->lo, g->hi);
            }
            s[j++] = v;
        }
        csv_fk(c, q, m);
        for (k = 0; k < 9; k++)
            r[k] = m[(k / 3) * 4 + k % 3];
        // quaternion of r (Shepperd: the largest of w, x, y, z first)
        tr = r[0] + r[4] + r[8];
        if (tr > 0) {
            double t = sqrt(tr + 1) * 2;
            qw = t / 4, qx = (r[7] - r[5]) / t, qy = (r[2] - r[6]) / t, qz = (r[3] - r[1]) / t;
        } else if (r[0] > r[4] && r[0] > r[8]) {
            double t = sqrt(1 + r[0] - r[4] - r[8]) * 2;
            qw = (r[7] - r[5]) / t, qx = t / 4, qy = (r[1] + r[3]) / t, qz = (r[2] + r[6]) / t;
        } else if (r[4] > r[8]) {
            double t = sqrt(1 + r[4] - r[0] - r[8]) * 2;
            qw = (r[2] - r[6]) / t, qx = (r[1] + r[3]) / t, qy = t / 4, qz = (r[5] + r[7]) / t;
        } else {
            double t = sqrt(1 + r[8] - r[0] - r[4]) * 2;
            qw = (r[3] - r[1]) / t, qx = (r[2] + r[6]) / t, qy = (r[5] + r[7]) / t, qz = t / 4;
        }
        fprintf(f, "%d", i);
        for (k = 0; k < dof; k++)
            fprintf(f, ",%.17g", q[k]);
        for (k = 0; k < dof; k++)
            fprintf(f, ",%.17g", s[k]);
        for (k = 0; k < 3; k++)
            fprintf(f, ",%.17g", m[k * 4 + 3]);
        for (k = 0; k < 9; k++)
            fprintf(f, ",%.17g", r[k]);
        fprintf(f, ",%.17g,%.17g,%.17g,%.17g\n", qx, qy, qz, qw);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    const char *chains = "bench/chains", *out = "build/arm";
    int n = 10000, i;
    unsigned long long seed = 2026;
    char path[1024];
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--problems") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--chains") && i + 1 < argc)
            chains = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else {
            fprintf(stderr, "usage: ik_problems [--problems N] [--seed S] [--chains DIR] "
                            "[--out DIR]\n");
            return 2;
        }
    }
    for (i = 0; i < ARM_COUNT; i++) {
        arm_def arm;
        csv_chain c, back;
        char comment[256];
        if (arm_build((arm_id)i, &arm) != IK_OK || arm_chain_to_csv(&arm.chain, &c) != 0) {
            fprintf(stderr, "arm %d: cannot build\n", i);
            return 1;
        }
        snprintf(comment, sizeof comment, "%s: written by bench/ik_problems from bench/arms.h%s",
                 arm.name, arm.position_only ? " (position targets only)" : "");
        snprintf(path, sizeof path, "%s/%s.csv", chains, arm.name);
        if (csv_write_chain(path, &c, comment) != 0) {
            fprintf(stderr, "%s: cannot write\n", path);
            return 1;
        }
        // problems from the chain as the file says it (the round trip through text)
        if (csv_read_chain(path, &back) != 0)
            return 1;
        snprintf(path, sizeof path, "%s/%s_random.csv", out, arm.name);
        write_problems(path, &back, n, seed + (unsigned long long)i, 0, arm.name);
        snprintf(path, sizeof path, "%s/%s_near.csv", out, arm.name);
        write_problems(path, &back, n, seed + (unsigned long long)i, 1, arm.name);
        printf("%s: %d joints, %d problems x 2\n", arm.name, back.dof, n);
    }
    return 0;
}
