/* Replays fuzz corpora without libFuzzer, so that any compiler (with or without sanitizers) can
   run the harnesses: make test replays the committed seed corpus of every target this way.
   Usage: replay DIR            every target's files in DIR/<target>/ (tests/fuzz/corpus)
          replay TARGET FILE... the given files through one target (to reproduce a finding)
   A failed check aborts; otherwise the last line is "N passed, 0 failed", N the inputs run. */
#define IK_IMPLEMENTATION
#include "fuzz.h"
#include <dirent.h>

int fuzz_chain(const uint8_t *data, size_t size);
int fuzz_svd(const uint8_t *data, size_t size);
int fuzz_rotation(const uint8_t *data, size_t size);
int fuzz_limb(const uint8_t *data, size_t size);
int fuzz_ccd(const uint8_t *data, size_t size);
int fuzz_jacobian(const uint8_t *data, size_t size);
int fuzz_arm(const uint8_t *data, size_t size);
int fuzz_skeleton(const uint8_t *data, size_t size);
int fuzz_closed(const uint8_t *data, size_t size);

static const struct {
    const char *name;
    int (*fn)(const uint8_t *, size_t);
} targets[] = {
    { "chain", fuzz_chain }, { "svd", fuzz_svd },           { "rotation", fuzz_rotation },
    { "limb", fuzz_limb },   { "ccd", fuzz_ccd },           { "jacobian", fuzz_jacobian },
    { "arm", fuzz_arm },     { "skeleton", fuzz_skeleton }, { "closed", fuzz_closed },
};
#define TARGET_COUNT (int)(sizeof targets / sizeof targets[0])

// Runs one file through fn; returns 1 if it was read.
static int replay_file(int (*fn)(const uint8_t *, size_t), const char *path)
{
    static uint8_t buf[1 << 20];
    size_t n;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    {
        // an exact-size heap copy, so that ASan sees a read past the input
        uint8_t *copy = (uint8_t *)malloc(n ? n : 1);
        if (!copy)
            return 0;
        memcpy(copy, buf, n);
        fn(copy, n);
        free(copy);
    }
    return 1;
}

int main(int argc, char **argv)
{
    int total = 0, t, i;
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR | TARGET FILE...\n", argv[0]);
        return 2;
    }
    for (t = 0; t < TARGET_COUNT; t++)
        if (strcmp(argv[1], targets[t].name) == 0) {
            for (i = 2; i < argc; i++) {
                if (!replay_file(targets[t].fn, argv[i])) {
                    fprintf(stderr, "cannot read %s\n", argv[i]);
                    return 2;
                }
                total++;
            }
            printf("%d passed, 0 failed\n", total);
            return 0;
        }
    for (t = 0; t < TARGET_COUNT; t++) {
        char path[4096];
        struct dirent *e;
        int count = 0;
        DIR *d;
        snprintf(path, sizeof path, "%s/%s", argv[1], targets[t].name);
        d = opendir(path);
        if (!d) {
            fprintf(stderr, "no corpus directory %s\n", path);
            return 2;
        }
        while ((e = readdir(d)) != NULL) {
            char file[8192];
            if (e->d_name[0] == '.')
                continue;
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            count += replay_file(targets[t].fn, file);
        }
        closedir(d);
        printf("%-9s %d inputs\n", targets[t].name, count);
        if (count == 0) {
            fprintf(stderr, "empty corpus %s\n", path);
            return 2;
        }
        total += count;
    }
    printf("%d passed, 0 failed\n", total);
    return 0;
}
