/* scratch.c - temporaries reused from call to call (see scratch.h).
 *
 * Each block carries a header with its capacity. Capacities are rounded up
 * (to a power of two below 1 MiB, to whole MiB above) so that calls of
 * nearby sizes share blocks. A thread's kept blocks live in a fixed array
 * in thread-local storage: getting and putting back cost a scan of at most
 * SCRATCH_SLOTS entries and no lock. */
#include "scratch.h"
#include "tls.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct header {
    size_t cap;
    size_t pad; /* keeps the data aligned as malloc's (16 bytes) */
};

/* The capacities sit beside the pointers: a search reads no header. */
struct kept {
    struct header *blk[SCRATCH_SLOTS];
    size_t cap[SCRATCH_SLOTS];
    int n;
    int registered; /* thread-exit destructor set */
    size_t bytes;
};

static SHIM_TLS struct kept kept;
static long long mallocs;

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

static size_t round_cap(size_t n)
{
    const size_t mib = (size_t)1 << 20;
    size_t cap = 64;
    if (n > mib)
        return n > (size_t)-1 - mib ? n : (n + mib - 1) & ~(mib - 1);
    while (cap < n)
        cap <<= 1;
    return cap;
}

/* Take entry i out of the array (the last one fills its place). */
static void drop(int i)
{
    kept.n--;
    kept.blk[i] = kept.blk[kept.n];
    kept.cap[i] = kept.cap[kept.n];
}

/* Index of the smallest kept block of at least n bytes, or -1. */
static int best_fit(size_t n)
{
    int best = -1;
    for (int i = 0; i < kept.n; i++)
        if (kept.cap[i] >= n && (best < 0 || kept.cap[i] < kept.cap[best]))
            best = i;
    return best;
}

void *scratch_get(size_t n)
{
    int i = best_fit(n ? n : 1);
    struct header *h;
    if (i >= 0) {
        h = kept.blk[i];
        kept.bytes -= kept.cap[i];
        drop(i);
        return h + 1;
    }
    size_t cap = round_cap(n ? n : 1);
    if (cap > (size_t)-1 - sizeof *h || !(h = malloc(sizeof *h + cap)))
        return NULL;
    __atomic_add_fetch(&mallocs, 1, __ATOMIC_RELAXED);
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

/* Room for h: a free slot and the byte budget, evicting smaller blocks
 * (a larger block serves every call a smaller one did). 0 when h must go. */
static int make_room(const struct header *h)
{
    if (h->cap > SCRATCH_KEEP)
        return 0;
    while (kept.n > 0 && (kept.n == SCRATCH_SLOTS || kept.bytes + h->cap > SCRATCH_KEEP)) {
        int smallest = 0;
        for (int i = 1; i < kept.n; i++)
            if (kept.cap[i] < kept.cap[smallest])
                smallest = i;
        if (kept.cap[smallest] > h->cap)
            return 0;
        kept.bytes -= kept.cap[smallest];
        free(kept.blk[smallest]);
        drop(smallest);
    }
    return 1;
}

void scratch_put(void *p)
{
    struct header *h;
    if (!p)
        return;
    h = (struct header *)p - 1;
    if (!make_room(h)) {
        free(h);
        return;
    }
    if (!kept.registered)
        register_exit();
    kept.blk[kept.n] = h;
    kept.cap[kept.n++] = h->cap;
    kept.bytes += h->cap;
}

void scratch_release(void)
{
    while (kept.n > 0)
        free(kept.blk[--kept.n]);
    kept.bytes = 0;
}

long long scratch_mallocs(void) { return __atomic_load_n(&mallocs, __ATOMIC_RELAXED); }
