/* scratch.c - temporaries reused from call to call (see scratch.h).
 *
 * Each block carries a header with its capacity. Capacities up to 1 MiB
 * are powers of two from 64 B, one class each, and a thread keeps the
 * given-back blocks of each class on a list of its own: getting one is
 * taking the head of the first non-empty list from the size's class up,
 * a few loads however many blocks the thread keeps (a best-fit search
 * over every kept block would grow with them, on every call). Larger
 * blocks, rounded to whole MiB, share one list searched for the smallest
 * fit: such calls are long.
 * Thread-local storage, no lock. */
#include "engine/scratch.h"
#include "engine/tls.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL_CLASSES = 15 }; /* 64 B << 0 .. 64 B << 14 = 1 MiB */
#define SMALL_MAX ((size_t)64 << (SMALL_CLASSES - 1))

struct header {
    size_t cap;
    struct header *next; /* on a kept list; also keeps the data 16-byte aligned */
};

struct kept {
    struct header *small[SMALL_CLASSES];
    int nsmall[SMALL_CLASSES];
    struct header *large;
    int nlarge;
    int registered; /* thread-exit destructor set */
    size_t bytes;
};

static SHIM_TLS struct kept kept;

#ifdef COLLSHIM_SMPI
/* Simulated ranks are not threads, and each has its own copy of this
 * library: a key per copy would exhaust PTHREAD_KEYS_MAX at 1024 ranks. */
static void register_exit(void) { kept.registered = 1; }
#else
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static int exit_key_made;

static void release_at_exit(void *unused)
{
    (void)unused;
    scratch_release();
}

static void make_exit_key(void) { exit_key_made = !pthread_key_create(&exit_key, release_at_exit); }

/* Have the thread's kept blocks freed when it exits. */
static void register_exit(void)
{
    pthread_once(&exit_once, make_exit_key);
    if (exit_key_made)
        pthread_setspecific(exit_key, &kept);
    kept.registered = 1;
}
#endif

/* The class of the smallest small block of at least n bytes; -1 above. */
static int class_of(size_t n)
{
    if (n <= 64)
        return 0;
    if (n > SMALL_MAX)
        return -1;
    return 64 - __builtin_clzll((unsigned long long)(n - 1)) - 6;
}

static size_t round_cap(size_t n)
{
    const size_t mib = (size_t)1 << 20;
    int c = class_of(n);
    if (c >= 0)
        return (size_t)64 << c;
    return n > (size_t)-1 - mib ? n : (n + mib - 1) & ~(mib - 1);
}

/* Unlink the smallest large block of at least n bytes, or NULL. */
static struct header *take_large(size_t n)
{
    struct header **best = NULL;
    for (struct header **h = &kept.large; *h; h = &(*h)->next)
        if ((*h)->cap >= n && (!best || (*h)->cap < (*best)->cap))
            best = h;
    if (!best)
        return NULL;
    struct header *got = *best;
    *best = got->next;
    kept.nlarge--;
    return got;
}

/* A kept block of at least n bytes, or NULL. */
static struct header *take(size_t n)
{
    for (int c = class_of(n); c >= 0 && c < SMALL_CLASSES; c++)
        if (kept.small[c]) {
            struct header *h = kept.small[c];
            kept.small[c] = h->next;
            kept.nsmall[c]--;
            return h;
        }
    return take_large(n);
}

void *scratch_get(size_t n)
{
    struct header *h = take(n ? n : 1);
    if (h) {
        kept.bytes -= h->cap;
        return h + 1;
    }
    size_t cap = round_cap(n ? n : 1);
    if (cap > (size_t)-1 - sizeof *h || !(h = malloc(sizeof *h + cap)))
        return NULL;
    h->cap = cap;
    return h + 1;
}

void *scratch_get_zeroed(size_t n)
{
    void *p = scratch_get(n);
    if (p)
        memset(p, 0, n);
    return p;
}

void scratch_put(void *p)
{
    struct header *h;
    if (!p)
        return;
    h = (struct header *)p - 1;
    int c = h->cap <= SMALL_MAX ? class_of(h->cap) : -1;
    int *count = c >= 0 ? &kept.nsmall[c] : &kept.nlarge;
    if (*count >= SCRATCH_PER_CLASS || kept.bytes + h->cap > SCRATCH_KEEP) {
        free(h);
        return;
    }
    if (!kept.registered)
        register_exit();
    struct header **list = c >= 0 ? &kept.small[c] : &kept.large;
    h->next = *list;
    *list = h;
    ++*count;
    kept.bytes += h->cap;
}

static void free_list(struct header **list, int *count)
{
    while (*list) {
        struct header *h = *list;
        *list = h->next;
        free(h);
    }
    *count = 0;
}

void scratch_release(void)
{
    for (int c = 0; c < SMALL_CLASSES; c++)
        free_list(&kept.small[c], &kept.nsmall[c]);
    free_list(&kept.large, &kept.nlarge);
    kept.bytes = 0;
}

