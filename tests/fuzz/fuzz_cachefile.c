/*
 * libFuzzer target: the check a disk cache file passes before its binary
 * goes to the driver (oclblas__cache_file_check), on arbitrary bytes. The
 * first input byte chooses a mode, the rest is the file: with bit 0 set the
 * harness writes the right checksum into the header first, so that the
 * fuzzer reaches the checks after it (a 64-bit hash is not found by
 * mutation). An accepted file must describe exactly itself: the key it was
 * asked for, names and binary inside the buffer and ending at its end.
 */
#include "cache/disk.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char key[] = "oclblas fuzz\nkey";

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int fix_checksum = data[0] & 1;
    const size_t len = size - 1;
    /* A copy of its own size, so that ASan sees any read past the end. */
    unsigned char *file = malloc(len ? len : 1);
    if (!file)
        return 0;
    memcpy(file, data + 1, len);
    if (fix_checksum && len >= 40) {
        uint32_t key_len, names_len;
        uint64_t bin_len;
        memcpy(&key_len, file + 12, 4);
        memcpy(&bin_len, file + 16, 8);
        memcpy(&names_len, file + 32, 4);
        if (key_len <= len && names_len <= len && bin_len <= len && (uint64_t)40 + key_len + names_len + bin_len == len) {
            const unsigned char *names = file + 40 + key_len;
            const uint64_t sum = fnv1a(names + names_len, bin_len, fnv1a(names, names_len, 0xcbf29ce484222325ull));
            memcpy(file + 24, &sum, 8);
        }
    }
    oclblas__cache_file f;
    const char *why = oclblas__cache_file_check(file, len, key, &f);
    if (!why) {
        const unsigned char *names = (const unsigned char *)f.names;
        if (len < 40 + strlen(key) || memcmp(file + 40, key, strlen(key)) != 0 || names != file + 40 + strlen(key) ||
            f.binary != names + f.names_len || f.binary + f.binary_len != file + len || f.binary_len == 0 ||
            f.names_len == 0 || memchr(f.names, '\0', f.names_len))
            abort();
    } else if (!*why) {
        abort();
    }
    free(file);
    return 0;
}
