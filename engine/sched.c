/* sched.c - recording an algorithm into a schedule, and the engine that
 * runs schedules (see sched.h). */
#include "engine/sched.h"
#include "engine/buf.h"
#include "engine/scratch.h"

#include <stdlib.h>
#include <string.h>

/* Grow *arr (elements of size sz) to hold one more; 0 or MPI_ERR_NO_MEM. */
static int grow(void **arr, int n, int *cap, size_t sz)
{
    if (n < *cap)
        return MPI_SUCCESS;
    int ncap = *cap ? 2 * *cap : 16;
    void *p = scratch_get((size_t)ncap * sz);
    if (!p)
        return MPI_ERR_NO_MEM;
    if (*arr)
        memcpy(p, *arr, (size_t)*cap * sz);
    scratch_put(*arr);
    *arr = p;
    *cap = ncap;
    return MPI_SUCCESS;
}

#define GROW(s, arr, n, cap) grow((void **)&(s)->arr, (s)->n, &(s)->cap, sizeof *(s)->arr)

int sched_add_local(struct sched *s, const struct sched_step *step)
{
    int err = GROW(s, steps, nsteps, capsteps);
    if (!err)
        s->steps[s->nsteps++] = *step;
    return err;
}

/* A step that fills a request slot of its own; *req gets the slot's token. */
static int add_request_step(struct sched *s, struct sched_step *st, MPI_Request *req)
{
    int err = GROW(s, reqs, nreqs, capreqs);
    if (err)
        return err;
    st->slot = s->nreqs;
    if ((err = sched_add_local(s, st)))
        return err;
    s->reqs[s->nreqs] = MPI_REQUEST_NULL;
    *req = SCHED_TOKEN(s->nreqs++);
    return MPI_SUCCESS;
}

int sched_add_p2p(struct sched *s, enum sched_step_kind kind, const void *buf, int count,
                  MPI_Datatype type, int peer, MPI_Request *req)
{
    struct sched_step st = {.kind = kind, .peer = peer, .src = buf, .dst = (void *)buf,
                            .count = count, .type = type};
    return add_request_step(s, &st, req);
}

int sched_add_start(struct sched *s, sched_start_fn start, MPI_Request *req)
{
    struct sched_step st = {.kind = STEP_START, .start = start};
    return add_request_step(s, &st, req);
}

/* One WAIT step over the tokens of reqs that are not MPI_REQUEST_NULL;
 * like MPI_Waitall, the tokens become MPI_REQUEST_NULL. */
int sched_add_wait(struct sched *s, int n, MPI_Request *reqs)
{
    struct sched_step st = {.kind = STEP_WAIT, .slot = s->nwaits};
    int err = MPI_SUCCESS;
    for (int i = 0; i < n && !err; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        if (!(err = GROW(s, waits, nwaits, capwaits))) {
            s->waits[s->nwaits++] = SCHED_SLOT(reqs[i]);
            reqs[i] = MPI_REQUEST_NULL;
            st.n++;
        }
    }
    return err || st.n == 0 ? err : sched_add_local(s, &st);
}

int sched_keep_mem(struct sched *s, void *base)
{
    int err = GROW(s, mem, nmem, capmem);
    if (!err)
        s->mem[s->nmem++] = base;
    return err;
}

int sched_keep_type(struct sched *s, MPI_Datatype type)
{
    int err = GROW(s, types, ntypes, captypes);
    if (!err)
        s->types[s->ntypes++] = type;
    return err;
}

static int copy_peers(struct sched *s)
{
    /* an intercommunicator's peers are its remote group */
    int n = s->args.remote_size ? s->args.remote_size : s->args.size;
    if (!s->args.peers)
        return MPI_SUCCESS;
    s->peers = scratch_get((size_t)n * sizeof *s->peers);
    if (!s->peers)
        return MPI_ERR_NO_MEM;
    memcpy(s->peers, s->args.peers, (size_t)n * sizeof *s->peers);
    s->args.peers = s->peers;
    return MPI_SUCCESS;
}

int sched_build(const struct coll_args *a, int alg, coll_algorithm_fn run,
                struct sched **out)
{
    struct sched *s = scratch_get_zeroed(sizeof *s);
    int err;
    *out = NULL;
    if (!s)
        return MPI_ERR_NO_MEM;
    s->args = *a;
    s->alg = alg;
    if ((err = copy_peers(s))) {
        sched_free(s);
        return err;
    }
    s->args.sched = s; /* recording: the helpers append steps */
    err = run(&s->args);
    s->args.sched = NULL; /* the steps run with the same arguments, acting */
    if (err) {
        sched_free(s);
        return err;
    }
    s->built = 1;
    *out = s;
    return MPI_SUCCESS;
}

void sched_restart(struct sched *s)
{
    s->pc = 0;
    s->err = MPI_SUCCESS;
}

static int post(struct sched *s, const struct sched_step *st)
{
    const struct coll_args *a = &s->args;
    MPI_Request *r = &s->reqs[st->slot];
    if (st->kind == STEP_START)
        return st->start(a, r);
    if (st->kind == STEP_SEND)
        return a->env->transport->isend(st->src, (int)st->count, st->type, st->peer, a->tag,
                                        a->comm, r);
    return a->env->transport->irecv(st->dst, (int)st->count, st->type, st->peer, a->tag,
                                    a->comm, r);
}

static int local(struct sched *s, const struct sched_step *st)
{
    const struct coll_args *a = &s->args;
    switch (st->kind) {
    case STEP_COPY:
        return buf_copy(st->src, st->count, st->type, st->dst, st->count2, st->type2, a);
    case STEP_PACK:
        return buf_pack(st->src, st->count, st->type, st->dst, a);
    case STEP_UNPACK:
        return buf_unpack(st->src, st->dst, st->count, st->type, a);
    case STEP_REDUCE:
        return buf_reduce(a, st->src, st->dst, st->count, st->type, st->op);
    case STEP_MEMCPY:
        memmove(st->dst, st->src, (size_t)st->count);
        return MPI_SUCCESS;
    default:
        return post(s, st);
    }
}

/* 1 when every slot of the WAIT step has completed. */
static int satisfied(struct sched *s, const struct sched_step *st)
{
    for (int i = 0; i < st->n; i++) {
        MPI_Request *r = &s->reqs[s->waits[st->slot + i]];
        int done = 1;
        if (*r == MPI_REQUEST_NULL)
            continue;
        if ((s->err = s->args.env->transport->test(r, &done, MPI_STATUS_IGNORE)) || !done)
            return 0;
    }
    return 1;
}

static void drop_requests(struct sched *s)
{
    for (int i = 0; i < s->nreqs; i++)
        if (s->reqs[i] != MPI_REQUEST_NULL)
            s->args.env->transport->request_free(&s->reqs[i]);
}

int sched_advance(struct sched *s)
{
    while (s->pc < s->nsteps && !s->err) {
        const struct sched_step *st = &s->steps[s->pc];
        if (st->kind == STEP_WAIT ? !satisfied(s, st) : (s->err = local(s, st)) != 0)
            break;
        s->pc++;
    }
    if (s->err) {
        drop_requests(s);
        s->pc = s->nsteps;
    }
    return s->pc == s->nsteps;
}

void sched_free(struct sched *s)
{
    if (!s)
        return;
    drop_requests(s);
    for (int i = 0; i < s->nmem; i++)
        scratch_put(s->mem[i]);
    for (int i = 0; i < s->ntypes; i++)
        PMPI_Type_free(&s->types[i]);
    scratch_put(s->steps);
    scratch_put(s->reqs);
    scratch_put(s->waits);
    scratch_put(s->mem);
    scratch_put(s->types);
    scratch_put(s->peers);
    scratch_put(s);
}
