/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * QEMU's edu device as a DMA engine (QEMU docs/specs/edu.rst): PCI 1234:11e8, registers in BAR0;
 * DMA source 0x80, destination 0x88, count 0x90, command 0x98 (bit 0 start, bit 1 direction
 * 1 = device to RAM); one 4096-byte buffer at device address 0x40000; 28-bit DMA mask by default.
 * The command register's start bit clears when the transfer is done.
 */
#include "efi/measure/dma_engine.h"

#define EDU_DMA_SRC   0x80u
#define EDU_DMA_DST   0x88u
#define EDU_DMA_COUNT 0x90u
#define EDU_DMA_CMD   0x98u
#define EDU_CMD_START 0x1u
#define EDU_CMD_TO_RAM 0x2u
#define EDU_BUFFER    0x40000u

static hw_status edu_copy(const struct hw *hw, uint64_t regs, uint64_t host, uint32_t bytes, int to_device,
			  uint64_t timeout_ticks, uint64_t (*now)(void))
{
	hw_status st = hw_mmio_write64(hw, regs + EDU_DMA_SRC, to_device ? host : EDU_BUFFER);
	if (st == HW_OK)
		st = hw_mmio_write64(hw, regs + EDU_DMA_DST, to_device ? EDU_BUFFER : host);
	if (st == HW_OK)
		st = hw_mmio_write64(hw, regs + EDU_DMA_COUNT, bytes);
	if (st == HW_OK)
		st = hw_mmio_write64(hw, regs + EDU_DMA_CMD, EDU_CMD_START | (to_device ? 0 : EDU_CMD_TO_RAM));
	uint64_t t0 = now(), cmd = EDU_CMD_START;
	while (st == HW_OK && (cmd & EDU_CMD_START)) {
		if (now() - t0 > timeout_ticks)
			return HW_ERROR;
		st = hw_mmio_read64(hw, regs + EDU_DMA_CMD, &cmd);
	}
	return st;
}

const struct dma_engine dma_engine_edu = {
	.name = "QEMU edu",
	.vendor = 0x1234,
	.device = 0x11e8,
	.dma_mask = (1ull << 28) - 1,
	.dev_buffer = EDU_BUFFER,
	/* The buffer is 4096 bytes, but QEMU 7.2's edu range check rejects a transfer that ends
	 * exactly at the buffer's end (it compares the exclusive end with `<`) with a hardware
	 * error that stops the VM: transfers use half the buffer. */
	.dev_buffer_bytes = 2048,
	.copy = edu_copy,
	.regs_bar = 0,
};
