/* The implementation unit of tests/mix_user.c: make test builds this file and mix_user.c once
   with the same ik_real (they must link and run) and once with IK_USE_FLOAT in only one of them
   (the link must fail, naming the mismatch: ik.h's CONFIGURATION). */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>

double mix_user_length(void);

int main(void)
{
    double len = mix_user_length();
    int ok = len > 4.999 && len < 5.001;
    printf("one ik_real in both units: %s\n%d passed, %d failed\n", ok ? "ok" : "WRONG", ok, !ok);
    return ok ? 0 : 1;
}
