/*
 * memory.c - buffers: allocation and release through the backend.
 */
#include <stdlib.h>

#include "../backend/backend.h"
#include "memory.h"

gp_status_t gp_buffer_alloc(size_t nbytes, gp_buffer_t **out)
{
    *out = NULL;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    gp_buffer_t *b = malloc(sizeof *b);
    if (!b)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a buffer descriptor");
    void *p = NULL;
    /* A zero-size array still gets a distinct, valid address. */
    gp_status_t s = be->mem_alloc(nbytes ? nbytes : 1, gp_current_stream(), &p);
    if (s != GP_OK) {
        free(b);
        return s;
    }
    b->magic = GP_BUFFER_MAGIC;
    atomic_init(&b->refs, 1);
    b->ptr = p;
    b->size = nbytes;
    b->device = gp_current_device();
    b->deleter = NULL;
    b->deleter_ctx = NULL;
    *out = b;
    return GP_OK;
}

void gp_buffer_retain(gp_buffer_t *b) { atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed); }

void gp_buffer_release(gp_buffer_t *b)
{
    if (!b || atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1)
        return;
    b->magic = GP_DEAD_MAGIC;
    if (b->deleter) {
        b->deleter(b->deleter_ctx);
    } else {
        const gp_backend_i *be = gp_backend_running();
        if (be)
            be->mem_free(b->ptr, b->size ? b->size : 1, gp_current_stream());
    }
    free(b);
}
