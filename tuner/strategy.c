/*
 * The search strategies: which configurations to measure next, given what
 * the earlier ones cost. All of them propose only legal configurations, and
 * all are deterministic for a given seed and given costs, so that a run
 * resumed from its journal makes the same decisions as the run it
 * continues.
 *   full       every legal configuration (the seeds first), in code order
 *   random     a uniform sample without repetition: a fraction of the legal
 *              space or a count
 *   annealing  simulated annealing over legal neighbours (one, two or three
 *              parameters changed); each step measures `batch` unvisited
 *              neighbours of the current configuration and moves to the best
 *              of them if it is better, or else with the Metropolis chance
 *              exp(-relative loss / T); T falls geometrically from
 *              temp_start to temp_end over the budget
 *   pso        a discrete particle swarm: each particle takes, per
 *              parameter, a random value, its own best value, the swarm's
 *              best value, or keeps its own; a move that comes out illegal
 *              is drawn again (never measured), and a particle stuck on
 *              visited ground steps to an unvisited legal neighbour
 * Costs are positive (seconds per unit of work) or INFINITY for failures.
 */
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t pos, best;
    double cost, best_cost;
    int have_best;
} particle;

enum { MAX_DIST = 3 };

struct tune_strategy {
    tune_strategy_opts o;
    tune_space *s;
    tune_rng rng;
    tune_map seen; /* proposed (NAN until reported) or reported (cost) */
    uint64_t *seeds;
    int num_seeds, seeds_given;
    double progress;
    /* full and random */
    size_t pos;
    uint64_t *order;
    long target, proposed;
    /* annealing */
    int have_cur, restarting;
    uint64_t cur;
    double cur_cost;
    int have_best;
    uint64_t best;
    double best_cost;
    uint64_t nb_of;
    int nb_valid[MAX_DIST + 1];
    uint64_t *nb[MAX_DIST + 1];
    size_t nb_cap[MAX_DIST + 1];
    long nb_n[MAX_DIST + 1];
    /* pso */
    particle *parts;
    int num_parts, started;
    uint64_t *pending; /* per particle, what next() proposed; UINT64_MAX for none */
};

void tune_strategy_defaults(tune_strategy_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kind = TUNE_ANNEALING;
    o->seed = 1;
    o->count = 100;
    o->batch = 4;
    o->temp_start = 0.1;
    o->temp_end = 0.002;
    o->swarm = 8;
    o->p_random = 0.15;
    o->p_local = 0.3;
    o->p_global = 0.3;
}

static const char *const names[] = {"full", "random", "annealing", "pso"};

const char *tune_strategy_name(tune_strategy_kind k) { return (unsigned)k < 4 ? names[k] : "?"; }

int tune_strategy_parse(const char *name, tune_strategy_kind *k)
{
    for (int i = 0; i < 4; ++i)
        if (oclblas__strcaseeq(name, names[i])) {
            *k = (tune_strategy_kind)i;
            return 1;
        }
    return 0;
}

static int is_seen(const tune_strategy *st, uint64_t c) { return tune_map_get(&st->seen, c, NULL); }

static int mark(tune_strategy *st, uint64_t c) { return tune_map_put(&st->seen, c, NAN); }

/* Proposes c unless it was proposed before: 1 proposed (out[*n], *n one
 * more), 0 seen already, -1 out of memory. */
static int propose(tune_strategy *st, uint64_t c, uint64_t *out, int *n)
{
    if (is_seen(st, c))
        return 0;
    if (!mark(st, c))
        return -1;
    out[(*n)++] = c;
    return 1;
}

tune_strategy *tune_strategy_new(tune_space *s, const tune_strategy_opts *o, const uint64_t *seeds, int num_seeds,
                                 char *err, size_t len)
{
    tune_strategy *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    st->o = *o;
    st->s = s;
    if (st->o.batch < 1)
        st->o.batch = 1;
    tune_rng_seed(&st->rng, o->seed);
    if (num_seeds > 0) {
        st->seeds = malloc((size_t)num_seeds * sizeof *st->seeds);
        if (!st->seeds) {
            free(st);
            snprintf(err, len, "out of memory");
            return NULL;
        }
        /* Duplicates and illegal seeds would only waste a measurement. */
        for (int i = 0; i < num_seeds; ++i) {
            int dup = 0;
            for (int j = 0; j < st->num_seeds; ++j)
                dup |= st->seeds[j] == seeds[i];
            if (!dup && tune_space_legal(s, seeds[i]))
                st->seeds[st->num_seeds++] = seeds[i];
        }
    }
    switch (o->kind) {
    case TUNE_FULL:
        if (!tune_space_enumerate(s, TUNE_ENUM_LIMIT, err, len))
            goto fail;
        st->target = (long)s->num_legal;
        break;
    case TUNE_RANDOM:
        if (o->fraction > 0 || s->product <= TUNE_ENUM_LIMIT) {
            if (!tune_space_enumerate(s, TUNE_ENUM_LIMIT, err, len))
                goto fail;
        }
        if (o->fraction > 0)
            st->target = (long)ceil(o->fraction * (double)s->num_legal);
        else
            st->target = o->count;
        if (st->target < 1) {
            snprintf(err, len, "random search needs a positive --fraction or --count");
            goto fail;
        }
        if (s->enumerated && st->target > (long)s->num_legal)
            st->target = (long)s->num_legal;
        if (s->enumerated) {
            st->order = malloc((s->num_legal ? s->num_legal : 1) * sizeof *st->order);
            if (!st->order) {
                snprintf(err, len, "out of memory");
                goto fail;
            }
            if (s->num_legal) /* an empty space (a kernel the device cannot run) has no list */
                memcpy(st->order, s->legal, s->num_legal * sizeof *st->order);
        }
        break;
    case TUNE_ANNEALING:
        if (!(o->temp_start > 0 && o->temp_end > 0)) {
            snprintf(err, len, "annealing temperatures must be positive");
            goto fail;
        }
        break;
    case TUNE_PSO:
        if (o->swarm < 1 || o->p_random < 0 || o->p_local < 0 || o->p_global < 0 ||
            o->p_random + o->p_local + o->p_global > 1.0 + 1e-9) {
            snprintf(err, len, "PSO needs a swarm of at least one particle and probabilities that sum to at most 1");
            goto fail;
        }
        st->num_parts = o->swarm;
        st->parts = calloc((size_t)o->swarm, sizeof *st->parts);
        st->pending = malloc((size_t)o->swarm * sizeof *st->pending);
        if (!st->parts || !st->pending) {
            snprintf(err, len, "out of memory");
            goto fail;
        }
        break;
    default:
        snprintf(err, len, "unknown strategy");
        goto fail;
    }
    return st;
fail:
    tune_strategy_free(st);
    return NULL;
}

void tune_strategy_free(tune_strategy *st)
{
    if (!st)
        return;
    tune_map_free(&st->seen);
    free(st->seeds);
    free(st->order);
    for (int d = 0; d <= MAX_DIST; ++d)
        free(st->nb[d]);
    free(st->parts);
    free(st->pending);
    free(st);
}

long tune_strategy_total(const tune_strategy *st)
{
    return st->o.kind == TUNE_FULL || st->o.kind == TUNE_RANDOM ? st->target : -1;
}

/* Seeds not yet proposed; returns how many went into out. */
static int give_seeds(tune_strategy *st, uint64_t *out, int max)
{
    int n = 0;
    while (st->seeds_given < st->num_seeds && n < max)
        if (propose(st, st->seeds[st->seeds_given++], out, &n) < 0)
            return -1;
    return n;
}

/* A random legal configuration not seen yet; 0 when none is left (or can be found). */
static int random_unseen(tune_strategy *st, uint64_t *code)
{
    tune_space *s = st->s;
    for (int tries = 0; tries < 2000; ++tries) {
        uint64_t c;
        if (!tune_space_random(s, &st->rng, &c))
            return 0;
        if (!is_seen(st, c)) {
            *code = c;
            return 1;
        }
    }
    /* Most of what can be drawn was seen: look through the list itself. */
    char err[256];
    if (!tune_space_enumerate(s, TUNE_ENUM_LIMIT, err, sizeof err) || s->num_legal == 0)
        return 0;
    const size_t start = (size_t)tune_rng_below(&st->rng, s->num_legal);
    for (size_t i = 0; i < s->num_legal; ++i) {
        const uint64_t c = s->legal[(start + i) % s->num_legal];
        if (!is_seen(st, c)) {
            *code = c;
            return 1;
        }
    }
    return 0;
}

/* ---- full and random ------------------------------------------------------ */

static int next_full(tune_strategy *st, uint64_t *out, int max)
{
    int n = give_seeds(st, out, max);
    if (n < 0)
        return -1;
    const tune_space *s = st->s;
    while (n < max && st->pos < s->num_legal)
        if (propose(st, s->legal[st->pos++], out, &n) < 0)
            return -1;
    return n;
}

static int next_random(tune_strategy *st, uint64_t *out, int max)
{
    const tune_space *s = st->s;
    int n = 0;
    while (n < max && st->proposed < st->target) {
        uint64_t c;
        if (st->seeds_given < st->num_seeds) {
            c = st->seeds[st->seeds_given++];
        } else if (s->enumerated) {
            /* One step of a Fisher-Yates shuffle: a sample without repetition. */
            if (st->pos >= s->num_legal)
                break;
            const size_t j = st->pos + (size_t)tune_rng_below(&st->rng, s->num_legal - st->pos);
            c = st->order[j];
            st->order[j] = st->order[st->pos];
            st->order[st->pos++] = c;
        } else if (!random_unseen(st, &c)) {
            break;
        }
        const int proposed = propose(st, c, out, &n);
        if (proposed < 0)
            return -1;
        st->proposed += proposed;
    }
    return n;
}

/* ---- annealing -------------------------------------------------------------- */

/* An unvisited legal neighbour of cur, drawn from distance 1, 2 or 3 (in
 * that order of preference); 0 when the neighbourhood is used up. */
static int pick_neighbour(tune_strategy *st, uint64_t *code)
{
    if (!st->have_cur)
        return 0;
    if (st->nb_of != st->cur) {
        memset(st->nb_valid, 0, sizeof st->nb_valid);
        st->nb_of = st->cur;
    }
    static const double weight[MAX_DIST + 1] = {0, 0.5, 0.35, 0.15};
    int open[MAX_DIST + 1] = {0, 1, 1, 1};
    for (;;) {
        double total = 0;
        for (int d = 1; d <= MAX_DIST; ++d)
            total += open[d] ? weight[d] : 0;
        if (total <= 0)
            return 0;
        double r = tune_rng_uniform(&st->rng) * total;
        int d = 1;
        while (d < MAX_DIST && (!open[d] || r >= weight[d])) {
            if (open[d])
                r -= weight[d];
            ++d;
        }
        if (!open[d])
            return 0;
        if (!st->nb_valid[d]) {
            st->nb_n[d] = tune_space_neighbours(st->s, st->cur, d, &st->nb[d], &st->nb_cap[d]);
            if (st->nb_n[d] < 0)
                return -1;
            st->nb_valid[d] = 1;
        }
        /* Draw, dropping visited ones from the list as they turn up. */
        while (st->nb_n[d] > 0) {
            const long i = (long)tune_rng_below(&st->rng, (uint64_t)st->nb_n[d]);
            const uint64_t c = st->nb[d][i];
            st->nb[d][i] = st->nb[d][--st->nb_n[d]];
            if (!is_seen(st, c)) {
                *code = c;
                return 1;
            }
        }
        open[d] = 0;
    }
}

static int next_annealing(tune_strategy *st, uint64_t *out, int max)
{
    int n = give_seeds(st, out, max);
    if (n != 0)
        return n;
    if (!st->have_cur) {
        /* No seed, or every seed failed: start from random configurations. */
        while (n < max && n < st->o.batch) {
            uint64_t c;
            if (!random_unseen(st, &c))
                break;
            if (propose(st, c, out, &n) < 0)
                return -1;
        }
        return n;
    }
    st->restarting = 0;
    while (n < max && n < st->o.batch) {
        uint64_t c;
        const int got = pick_neighbour(st, &c);
        if (got < 0)
            return -1;
        if (!got)
            break;
        if (propose(st, c, out, &n) < 0)
            return -1;
    }
    if (n == 0) {
        /* The neighbourhood is used up: go back to the best configuration's,
         * or, when that is where we are, jump somewhere new. */
        if (st->have_best && st->best != st->cur) {
            st->cur = st->best;
            st->cur_cost = st->best_cost;
            return next_annealing(st, out, max);
        }
        uint64_t c;
        if (!random_unseen(st, &c))
            return 0;
        if (propose(st, c, out, &n) < 0)
            return -1;
        st->restarting = 1;
    }
    return n;
}

static void note_best(tune_strategy *st, uint64_t c, double cost)
{
    if (isfinite(cost) && (!st->have_best || cost < st->best_cost)) {
        st->have_best = 1;
        st->best = c;
        st->best_cost = cost;
    }
}

static void report_annealing(tune_strategy *st, const uint64_t *codes, const double *costs, int n)
{
    int have = 0;
    uint64_t cand = 0;
    double cand_cost = INFINITY;
    for (int i = 0; i < n; ++i) {
        if (isnan(costs[i]))
            continue;
        note_best(st, codes[i], costs[i]);
        if (!have || costs[i] < cand_cost) {
            have = 1;
            cand = codes[i];
            cand_cost = costs[i];
        }
    }
    if (!have || !isfinite(cand_cost))
        return;
    if (!st->have_cur || st->restarting || cand_cost < st->cur_cost) {
        st->have_cur = 1;
        st->cur = cand;
        st->cur_cost = cand_cost;
        return;
    }
    const double p = st->progress < 0 ? 0 : st->progress > 1 ? 1 : st->progress;
    const double temp = st->o.temp_start * pow(st->o.temp_end / st->o.temp_start, p);
    const double loss = (cand_cost - st->cur_cost) / st->cur_cost;
    if (tune_rng_uniform(&st->rng) < exp(-loss / temp)) {
        st->cur = cand;
        st->cur_cost = cand_cost;
    }
}

/* ---- particle swarm ----------------------------------------------------------- */

static uint64_t digit_of(const tune_space *s, uint64_t c, int i) { return c / s->stride[i] % (uint64_t)s->num_values[i]; }

static int move_particle(tune_strategy *st, const particle *pt, uint64_t *code)
{
    tune_space *s = st->s;
    const double pr = st->o.p_random, pl = st->o.p_local, pg = st->o.p_global;
    for (int tries = 0; tries < 200; ++tries) {
        uint64_t c = 0;
        for (int i = 0; i < s->num_params; ++i) {
            const double r = tune_rng_uniform(&st->rng);
            uint64_t d;
            if (r < pr)
                d = tune_rng_below(&st->rng, (uint64_t)s->num_values[i]);
            else if (r < pr + pl && pt->have_best)
                d = digit_of(s, pt->best, i);
            else if (r < pr + pl + pg && st->have_best)
                d = digit_of(s, st->best, i);
            else
                d = digit_of(s, pt->pos, i);
            c += d * s->stride[i];
        }
        if (!is_seen(st, c) && tune_space_legal(s, c)) {
            *code = c;
            return 1;
        }
    }
    /* Stuck where everything near was visited or illegal: an unvisited legal
     * neighbour of the particle, else of the swarm's best, else anywhere. */
    const uint64_t save_cur = st->cur;
    const int save_have = st->have_cur;
    const uint64_t around[2] = {pt->pos, st->have_best ? st->best : pt->pos};
    for (int a = 0; a < 2; ++a) {
        st->cur = around[a];
        st->have_cur = 1;
        const int got = pick_neighbour(st, code);
        if (got != 0) {
            st->cur = save_cur;
            st->have_cur = save_have;
            return got;
        }
    }
    st->cur = save_cur;
    st->have_cur = save_have;
    return random_unseen(st, code);
}

static int next_pso(tune_strategy *st, uint64_t *out, int max)
{
    int n = 0;
    for (int i = 0; i < st->num_parts; ++i)
        st->pending[i] = UINT64_MAX;
    for (int i = 0; i < st->num_parts && n < max; ++i) {
        particle *pt = &st->parts[i];
        uint64_t c;
        int got;
        if (!st->started) {
            got = 0;
            while (st->seeds_given < st->num_seeds && !got) {
                c = st->seeds[st->seeds_given++];
                got = !is_seen(st, c);
            }
            if (!got)
                got = random_unseen(st, &c);
            if (got)
                pt->pos = c;
        } else {
            got = move_particle(st, pt, &c);
        }
        if (got < 0)
            return -1;
        if (!got)
            continue;
        if (!mark(st, c))
            return -1;
        st->pending[i] = c;
        out[n++] = c;
    }
    st->started = 1;
    return n;
}

static void report_pso(tune_strategy *st, const uint64_t *codes, const double *costs, int n)
{
    for (int k = 0; k < n; ++k) {
        if (isnan(costs[k]))
            continue;
        note_best(st, codes[k], costs[k]);
        for (int i = 0; i < st->num_parts; ++i) {
            particle *pt = &st->parts[i];
            if (st->pending[i] != codes[k])
                continue;
            st->pending[i] = UINT64_MAX;
            /* A failed configuration is no place to stand. */
            if (!isfinite(costs[k]) && pt->have_best)
                break;
            pt->pos = codes[k];
            pt->cost = costs[k];
            if (isfinite(costs[k]) && (!pt->have_best || costs[k] < pt->best_cost)) {
                pt->have_best = 1;
                pt->best = codes[k];
                pt->best_cost = costs[k];
            }
            break;
        }
    }
}

/* ---- the interface -------------------------------------------------------------- */

int tune_strategy_next(tune_strategy *st, double progress, uint64_t *out, int max)
{
    st->progress = progress;
    if (max <= 0)
        return 0;
    switch (st->o.kind) {
    case TUNE_FULL:
        return next_full(st, out, max < st->o.batch ? max : st->o.batch);
    case TUNE_RANDOM:
        return next_random(st, out, max < st->o.batch ? max : st->o.batch);
    case TUNE_ANNEALING:
        return next_annealing(st, out, max);
    case TUNE_PSO:
        return next_pso(st, out, max);
    }
    return 0;
}

void tune_strategy_report(tune_strategy *st, const uint64_t *codes, const double *costs, int n)
{
    for (int i = 0; i < n; ++i)
        if (!isnan(costs[i]))
            tune_map_put(&st->seen, codes[i], costs[i]);
    if (st->o.kind == TUNE_ANNEALING)
        report_annealing(st, codes, costs, n);
    else if (st->o.kind == TUNE_PSO)
        report_pso(st, codes, costs, n);
    else
        for (int i = 0; i < n; ++i)
            if (!isnan(costs[i]))
                note_best(st, codes[i], costs[i]);
}
