/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The data pattern efiperf recognises on a device it reads through DMA (Block IO): the 64-bit
 * little-endian word at device byte offset o is (o / 8) XOR DMA_PATTERN_MAGIC. A test (or a lab)
 * fills a disk with it; efiperf then verifies every byte it read, and says "pattern unknown"
 * for any other content. Pure: host-tested.
 */
#ifndef EFIPERF_DMA_PATTERN_H
#define EFIPERF_DMA_PATTERN_H

#include <stdint.h>

#define DMA_PATTERN_MAGIC 0x2166726570696665ull   /* "efiperf!" little-endian */

/* The word the pattern puts at device byte offset `offset` (a multiple of 8). */
uint64_t dma_pattern_word(uint64_t offset);

/* Fill buf with the pattern of `bytes` (a multiple of 8) at device offset `offset`: what
 * efiperf writes to a disk range (dma_write_lba) and then reads back. */
void dma_pattern_fill(void *buf, uint64_t offset, uint64_t bytes);

/* 1 when the first word of the device (read into `first`) carries the pattern. */
int dma_pattern_present(uint64_t first);

/* Check `bytes` (a multiple of 8) read from device offset `offset` into buf. Returns 0 when all
 * match, else -1 with *bad = the device offset of the first wrong word. */
int dma_pattern_check(const void *buf, uint64_t offset, uint64_t bytes, uint64_t *bad);

#endif
