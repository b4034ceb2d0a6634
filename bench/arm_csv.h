/* arm_csv.h - the chain and problem files of ik.h's arm benchmark, in plain C (also C++), no
   ik.h: the Orocos KDL side reads them with the same code. Also the protocol's success check,
   with its own 4 x 4 matrix forward kinematics (independent of every solver).

   Chain file: one line per segment from base to tip,
       axis,lo,hi,px,py,pz,r00,r01,r02,r10,r11,r12,r20,r21,r22
   axis rotx|roty|rotz|none, lo,hi the limits (rad), and the segment's pose is
   pose_prev * Rot_axis(q_i) * Tip_i, Tip_i = (r row-major, p): Orocos KDL's
   Segment(Joint(axis), Tip). Lines starting with '#' and empty lines are skipped.
   Problem file: a '#' line, the header id,qtrue0..,seed0..,px,py,pz,r00..r22,qx,qy,qz,qw, then
   one row per problem. Results: id,status,q0..q{n-1},time_ns. */
#ifndef IK_BENCH_ARM_CSV_H
#define IK_BENCH_ARM_CSV_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSV_MAX_SEGMENTS 64

typedef struct csv_segment {
    int axis; // 0, 1, 2 (rotx, roty, rotz) or -1 (none)
    double lo, hi;
    double p[3], r[9]; // Tip: translation, row-major rotation
} csv_segment;

typedef struct csv_chain {
    int count, dof;
    csv_segment seg[CSV_MAX_SEGMENTS];
} csv_chain;

typedef struct csv_problems {
    int count, dof;
    int *id;
    double *qtrue, *seed; // [count * dof]
    double *pose;         // [count * 16]: px py pz, r00..r22, qx qy qz qw
} csv_problems;

static const char *const csv_axis_names[4] = { "none", "rotx", "roty", "rotz" };

// Reads up to max comma-separated numbers from s; returns how many.
static inline int csv__numbers(const char *s, double *out, int max)
{
    int n = 0;
    while (n < max && *s) {
        char *end;
        double v = strtod(s, &end);
        if (end == s)
            return n;
        out[n++] = v;
        s = end;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != ',')
            break;
        s++;
    }
    return n;
}

// 0 on success; -1 with a message on stderr.
static inline int csv_read_chain(const char *path, csv_chain *c)
{
    char line[4096];
    int ln = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    c->count = c->dof = 0;
    while (fgets(line, sizeof line, f)) {
        char *s = line, *comma;
        int a;
        ln++;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#' || *s == '\n' || *s == '\r' || *s == 0)
            continue;
        comma = strchr(s, ',');
        for (a = 0; a < 4; a++)
            if (comma && (size_t)(comma - s) == strlen(csv_axis_names[a]) &&
                strncmp(s, csv_axis_names[a], (size_t)(comma - s)) == 0)
                break;
        if (!comma || a == 4 || c->count == CSV_MAX_SEGMENTS) {
            fprintf(stderr, "%s:%d: bad segment (axis or too many segments)\n", path, ln);
            fclose(f);
            return -1;
        }
        {
            double v[14];
            csv_segment *g = &c->seg[c->count++];
            if (csv__numbers(comma + 1, v, 14) != 14 || v[0] > v[1]) {
                fprintf(stderr, "%s:%d: want axis and 14 numbers, lo <= hi\n", path, ln);
                fclose(f);
                return -1;
            }
            g->axis = a - 1;
            g->lo = v[0];
            g->hi = v[1];
            memcpy(g->p, v + 2, sizeof g->p);
            memcpy(g->r, v + 5, sizeof g->r);
            c->dof += g->axis >= 0;
        }
    }
    fclose(f);
    if (c->dof == 0) {
        fprintf(stderr, "%s: no moving segment\n", path);
        return -1;
    }
    return 0;
}

static inline int csv_write_chain(const char *path, const csv_chain *c, const char *comment)
{
    int i, k;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# %s\n# axis,lo,hi,px,py,pz,r00,r01,r02,r10,r11,r12,r20,r21,r22\n", comment);
    for (i = 0; i < c->count; i++) {
        const csv_segment *g = &c->seg[i];
        fprintf(f, "%s,%.17g,%.17g", csv_axis_names[g->axis + 1], g->lo, g->hi);
        for (k = 0; k < 3; k++)
            fprintf(f, ",%.17g", g->p[k]);
        for (k = 0; k < 9; k++)
            fprintf(f, ",%.17g", g->r[k]);
        fprintf(f, "\n");
    }
    return fclose(f);
}

static inline void csv_free_problems(csv_problems *p)
{
    free(p->id);
    free(p->qtrue);
    free(p->seed);
    free(p->pose);
    memset(p, 0, sizeof *p);
}

// Reads at most max problems (max <= 0: all) for a chain of dof joints. 0 or -1.
static inline int csv_read_problems(const char *path, int dof, int max, csv_problems *p)
{
    char line[16384];
    int cap = 1024, ln = 0, want = 1 + 2 * dof + 16;
    double v[1 + 2 * CSV_MAX_SEGMENTS + 16];
    FILE *f = fopen(path, "r");
    memset(p, 0, sizeof *p);
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    p->dof = dof;
    p->id = (int *)malloc(sizeof(int) * (size_t)cap);
    p->qtrue = (double *)malloc(sizeof(double) * (size_t)cap * (size_t)dof);
    p->seed = (double *)malloc(sizeof(double) * (size_t)cap * (size_t)dof);
    p->pose = (double *)malloc(sizeof(double) * (size_t)cap * 16);
    while (fgets(line, sizeof line, f) && (max <= 0 || p->count < max)) {
        int n;
        ln++;
        if (line[0] == '#' || line[0] == '\n' || strncmp(line, "id", 2) == 0)
            continue;
        n = csv__numbers(line, v, want);
        if (n != want) {
            fprintf(stderr, "%s:%d: want %d numbers, got %d\n", path, ln, want, n);
            fclose(f);
            csv_free_problems(p);
            return -1;
        }
        if (p->count == cap) {
            cap *= 2;
            p->id = (int *)realloc(p->id, sizeof(int) * (size_t)cap);
            p->qtrue = (double *)realloc(p->qtrue, sizeof(double) * (size_t)cap * (size_t)dof);
            p->seed = (double *)realloc(p->seed, sizeof(double) * (size_t)cap * (size_t)dof);
            p->pose = (double *)realloc(p->pose, sizeof(double) * (size_t)cap * 16);
        }
        p->id[p->count] = (int)v[0];
        memcpy(p->qtrue + (size_t)p->count * (size_t)dof, v + 1, sizeof(double) * (size_t)dof);
        memcpy(p->seed + (size_t)p->count * (size_t)dof, v + 1 + dof, sizeof(double) * (size_t)dof);
        memcpy(p->pose + (size_t)p->count * 16, v + 1 + 2 * dof, sizeof(double) * 16);
        p->count++;
    }
    fclose(f);
    return 0;
}

// 4 x 4 homogeneous matrices, row-major: c = a * b.
static void csv__mul4(const double *a, const double *b, double *c)
{
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            double s = 0;
            for (k = 0; k < 4; k++)
                s += a[i * 4 + k] * b[k * 4 + j];
            c[i * 4 + j] = s;
        }
}

// Forward kinematics of the segment list: out[16] the tip pose as a 4 x 4 matrix.
static inline void csv_fk(const csv_chain *c, const double *q, double *out)
{
    double t[16], m[16], tmp[16];
    int i, k, j = 0;
    for (k = 0; k < 16; k++)
        out[k] = k % 5 == 0;
    for (i = 0; i < c->count; i++) {
        const csv_segment *g = &c->seg[i];
        for (k = 0; k < 16; k++)
            m[k] = k % 5 == 0;
        if (g->axis >= 0) {
            // rotation about a coordinate axis: the other two rows/columns turn
            double cs = cos(q[j]), sn = sin(q[j]);
            int a = (g->axis + 1) % 3, b = (g->axis + 2) % 3;
            j++;
            m[a * 4 + a] = cs;
            m[a * 4 + b] = -sn;
            m[b * 4 + a] = sn;
            m[b * 4 + b] = cs;
        }
        for (k = 0; k < 16; k++)
            t[k] = k % 5 == 0;
        for (k = 0; k < 9; k++)
            t[(k / 3) * 4 + k % 3] = g->r[k];
        for (k = 0; k < 3; k++)
            t[k * 4 + 3] = g->p[k];
        csv__mul4(out, m, tmp);
        csv__mul4(tmp, t, out);
    }
}

// The protocol's success test: every joint within its limits, every component of the position
// error within tol_p and (unless position_only) every component of the rotation vector of
// R_target R^T within tol_r. *perr and *rerr (may be NULL) get the largest components.
static inline int csv_check(const csv_chain *c, const double *q, const double *pose,
                            int position_only, double tol_p, double tol_r, double *perr,
                            double *rerr)
{
    double m[16], big_p = 0, big_r = 0, e[9], v[3], sn, cs, ang, f;
    int i, k, j = 0, ok = 1;
    for (i = 0; i < c->count; i++)
        if (c->seg[i].axis >= 0) {
            if (!(q[j] >= c->seg[i].lo && q[j] <= c->seg[i].hi))
                ok = 0;
            j++;
        }
    csv_fk(c, q, m);
    for (k = 0; k < 3; k++)
        if (!(fabs(m[k * 4 + 3] - pose[k]) <= big_p))
            big_p = fabs(m[k * 4 + 3] - pose[k]);
    if (!position_only) {
        // e = R_target R^T; its rotation vector: angle * axis from the skew part
        for (i = 0; i < 3; i++)
            for (k = 0; k < 3; k++)
                e[i * 3 + k] = pose[3 + i * 3 + 0] * m[k * 4 + 0] +
                               pose[3 + i * 3 + 1] * m[k * 4 + 1] +
                               pose[3 + i * 3 + 2] * m[k * 4 + 2];
        v[0] = (e[7] - e[5]) / 2;
        v[1] = (e[2] - e[6]) / 2;
        v[2] = (e[3] - e[1]) / 2;
        sn = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        cs = (e[0] + e[4] + e[8] - 1) / 2;
        ang = atan2(sn, cs);
        f = sn > 0 ? ang / sn : 1;
        for (k = 0; k < 3; k++)
            if (!(fabs(v[k] * f) <= big_r))
                big_r = fabs(v[k] * f);
        if (cs < 0) // beyond a quarter turn the axis from the skew part is poor: just fail
            big_r = ang;
    }
    if (perr)
        *perr = big_p;
    if (rerr)
        *rerr = big_r;
    return ok && big_p <= tol_p && big_r <= tol_r;
}

static inline int csv__cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Median of t[n] (sorts t).
static inline double csv_median(double *t, int n)
{
    if (n <= 0)
        return 0;
    qsort(t, (size_t)n, sizeof *t, csv__cmp);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

// splitmix64: deterministic random numbers for seeds and problem sets.
static inline unsigned long long csv_rng_next(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
// Uniform in [lo, hi].
static inline double csv_rng_uniform(unsigned long long *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)(csv_rng_next(s) >> 11) / 9007199254740991.0;
}

#endif // IK_BENCH_ARM_CSV_H
