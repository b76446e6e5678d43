/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The TLS block arch_env_enter() points TPIDR_EL0 at (see arch/aarch64/prims.c).
 * picolibc's whole TLS segment is a few hundred bytes (errno is 4); 4 KiB leaves room.
 */
#ifndef EFIPERF_AARCH64_TLS_H
#define EFIPERF_AARCH64_TLS_H

#define ARM_TLS_TCB_BYTES   16     /* AArch64 TLS variant 1: TCB before the segment */
#define ARM_TLS_BLOCK_BYTES 4096
#define ARM_TLS_BLOCK_ALIGN 64     /* >= the PT_TLS alignment (4 with picolibc 1.8: readelf -l) */

/* 1 when TPIDR_EL0 points at efiperf's block and &errno lies inside it (call after
 * arch_env_enter; a 0 means the block is mis-sized for this picolibc). */
int arm_tls_check(void);

#endif
