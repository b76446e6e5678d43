/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ordering between normal (write-back) memory a device reads or writes by DMA and the device's
 * registers, for drivers that ring doorbells (efi/nvme/):
 *   arch_dma_wmb()  stores to DMA memory are visible to the device before a later register write
 *                   (a submission entry before its doorbell);
 *   arch_dma_rmb()  a load of DMA memory that saw a flag is not satisfied before it (a completion
 *                   entry's fields after its phase bit).
 * x86_64: uncached register writes are not reordered with earlier write-back stores and loads
 * are not reordered with older loads (SDM Vol.3A 9.2.2 "Memory Ordering in P6 and More Recent
 * Processor Families"), so a compiler barrier is enough. aarch64: DSB ST / DSB LD (Arm ARM
 * B2.3.12 "Memory barriers"; Linux arch/arm64/include/asm/barrier.h uses DSB for wmb/rmb).
 */
#ifndef EFIPERF_ARCH_BARRIER_H
#define EFIPERF_ARCH_BARRIER_H

static inline void arch_dma_wmb(void)
{
#if defined(__aarch64__)
	__asm__ volatile("dsb st" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

static inline void arch_dma_rmb(void)
{
#if defined(__aarch64__)
	__asm__ volatile("dsb ld" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

/* Inside a spin-wait loop: a hint that this CPU waits for another (x86 PAUSE, SDM Vol.2B; Arm
 * YIELD, Arm ARM C6.2 YIELD). Under QEMU's round-robin TCG it also lets the other vCPU run,
 * without which a ping-pong between two emulated CPUs crawls. */
static inline void arch_spin_hint(void)
{
#if defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#else
	__asm__ volatile("pause" ::: "memory");
#endif
}

#endif
