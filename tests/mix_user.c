/* A unit that uses ik.h without the implementation (see tests/mix_impl.c). */
#include "../ik.h"

double mix_user_length(void);

double mix_user_length(void)
{
    return (double)ik_vec3_length(ik_vec3_normalize(ik_vec3_make(3, 4, 0))) * 5;
}
