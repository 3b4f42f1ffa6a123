/*
 * memory.h - device buffers for arrays: allocation on the current device and
 * stream, through the backend (a caching pool on GPU backends).
 */
#ifndef GP_MEMORY_H
#define GP_MEMORY_H

#include "../core/core.h"

/* A new buffer of `nbytes` (0 allowed) on the current device, one reference
 * owned by the caller. GP_ERR_NOMEM (GP_ERR_NOMEM_DEVICE on a GPU) with the
 * size asked for when memory runs out. */
gp_status_t gp_buffer_alloc(size_t nbytes, gp_buffer_t **out);

#endif /* GP_MEMORY_H */
