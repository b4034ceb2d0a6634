/* arm_report - checks result files against the protocol with its own 4 x 4 matrix FK (every
   joint within limits, every position component within 1e-5 m, every rotation-vector component
   within 1e-5 rad) and prints one table row: solve rate, mean and median time per problem
   (failures included), per solver, then the ratios of the reference solver's (--ref K: the
   K-th results file, counting from 0) mean and median to the first solver's.
   Usage: arm_report [--position-only] [--ref K] LABEL CHAIN.csv PROBLEMS.csv NAME=RESULTS.csv...
          arm_report --header NAME...   (the table's header lines)
   A results file that does not exist prints "-" (e.g. a KDL solver that was not run). */
#include "arm_csv.h"

typedef struct stats {
    int ok, n;
    double mean_us, median_us;
} stats;

static int read_results(const char *path, const csv_chain *c, const csv_problems *p,
                        int position_only, stats *s)
{
    char line[16384];
    FILE *f = fopen(path, "r");
    double *t, v[CSV_MAX_SEGMENTS + 2], sum = 0;
    int n = 0;
    if (!f)
        return -1;
    t = (double *)malloc(sizeof(double) * (size_t)(p->count + 1));
    s->ok = 0;
    while (fgets(line, sizeof line, f) && n < p->count) {
        char *comma = strchr(line, ','), *rest;
        int id;
        if (line[0] == '#' || strncmp(line, "id", 2) == 0 || !comma)
            continue;
        id = atoi(line);
        rest = strchr(comma + 1, ',');
        if (!rest || csv__numbers(rest + 1, v, c->dof + 1) != c->dof + 1 || id != p->id[n]) {
            fprintf(stderr, "%s: bad row for problem %d\n", path, p->id[n]);
            fclose(f);
            free(t);
            return -2;
        }
        s->ok += csv_check(c, v, p->pose + (size_t)n * 16, position_only, 1e-5, 1e-5, NULL, NULL);
        t[n] = v[c->dof] / 1000;
        sum += t[n];
        n++;
    }
    fclose(f);
    s->n = n;
    s->mean_us = n ? sum / n : 0;
    s->median_us = csv_median(t, n);
    free(t);
    return n > 0 ? 0 : -2; // the first n problems (ik_solve --problems N)
}

int main(int argc, char **argv)
{
    static csv_chain c;
    csv_problems p;
    stats s[16];
    int have[16], i = 1, k, nres, position_only = 0, ref = -1;
    if (argc > 1 && !strcmp(argv[1], "--header")) {
        printf("| chain | start |");
        for (k = 2; k < argc; k++)
            printf(" %s solved | mean us | median us |", argv[k]);
        printf(" ref | ref mean / first | ref median / first |\n|---|---|");
        for (k = 2; k < argc; k++)
            printf("--:|--:|--:|");
        printf("---|--:|--:|\n");
        return 0;
    }
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        if (!strcmp(argv[i], "--position-only"))
            position_only = 1;
        else if (!strcmp(argv[i], "--ref") && i + 1 < argc)
            ref = atoi(argv[++i]);
    }
    if (argc - i < 4) {
        fprintf(stderr, "usage: arm_report [--position-only] [--ref K] LABEL CHAIN.csv "
                        "PROBLEMS.csv NAME=RESULTS.csv...\n");
        return 2;
    }
    if (csv_read_chain(argv[i + 1], &c) != 0 || csv_read_problems(argv[i + 2], c.dof, 0, &p) != 0)
        return 1;
    printf("| %s |", argv[i]);
    nres = argc - i - 3;
    for (k = 0; k < nres && k < 16; k++) {
        const char *eq = strchr(argv[i + 3 + k], '=');
        const char *path = eq ? eq + 1 : argv[i + 3 + k];
        int r = read_results(path, &c, &p, position_only, &s[k]);
        have[k] = r == 0;
        if (r == -2)
            fprintf(stderr, "%s: no rows or a bad row\n", path);
        if (have[k])
            printf(" %.2f%% | %.1f | %.1f |", 100.0 * s[k].ok / s[k].n, s[k].mean_us,
                   s[k].median_us);
        else
            printf(" - | - | - |");
    }
    if (ref > 0 && ref < nres && have[0] && have[ref] && s[0].mean_us > 0) {
        const char *name = argv[i + 3 + ref], *eq = strchr(name, '=');
        printf(" %.*s | %.1f | %.1f |\n", eq ? (int)(eq - name) : (int)strlen(name), name,
               s[ref].mean_us / s[0].mean_us, s[ref].median_us / s[0].median_us);
    } else {
        printf(" - | - | - |\n");
    }
    csv_free_problems(&p);
    return 0;
}
