"""The design changes whose speedups WarpTLM must predict as GPGPU-Sim does (issue 52, relative accuracy).

Each change is one edit of the calibrated baseline, written twice: as GPGPU-Sim 4.2 options replacing those of
its stock configs/tested-cfgs/SM2_GTX480/gpgpusim.config, and as WarpTLM --set options on the gtx480 config.
`scripts/gpgpusim-deltas` measures GPGPU-Sim's side (scenarios/calibration/gpgpusim_sm2_gtx480_deltas.csv);
`scripts/correlate --deltas` runs WarpTLM's and compares the speedups.

A speedup is the baseline's time over the changed run's: cycles over the core clock, so that a faster core clock
(whose cycles are shorter) counts as it would on a wall clock.
"""

from typing import Dict, List, NamedTuple

BASE_CORE_MHZ = 700.0  # gtx480 and SM2_GTX480: -gpgpu_clock_domains 700:700:700:924


class Change(NamedTuple):
    what: str                 # what it changes
    gpgpusim: Dict[str, str]  # GPGPU-Sim options (option -> value; "icnt:KEY" a key of the interconnect's file)
    warptlm: List[str]        # WarpTLM --set options
    core_mhz: float           # the core clock its cycles count


CHANGES = {
    "scheduler_lrr": Change(
        "warp scheduler GTO -> loose round robin",
        {"-gpgpu_scheduler": "lrr"},
        ["sm.warp_scheduler=lrr"], BASE_CORE_MHZ),
    "scheduler_two_level": Change(
        "warp scheduler GTO -> two-level (6 active warps per scheduler, round robin inside, pending warps "
        "promoted in the order they left)",
        {"-gpgpu_scheduler": "two_level_active:6:0:1"},
        ["sm.warp_scheduler=two_level", "sm.two_level.active=6", "sm.two_level.inner=lrr",
         "sm.two_level.outer=lrr"], BASE_CORE_MHZ),
    "l1d_48k": Change(
        "L1D 16 KB -> 48 KB (64 sets x 128 B x 6 ways), shared memory 48 KB -> 16 KB",
        {"-gpgpu_cache:dl1": "N:64:128:6,L:L:m:N:H,S:64:8,8", "-gpgpu_shmem_size": "16384",
         "-gpgpu_shmem_sizeDefault": "16384"},
        ["l1d.sets=64", "l1d.ways=6", "sm.shared_mem=16384", "smem.size=16384"], BASE_CORE_MHZ),
    "l1d_bypass_global": Change(
        "global loads bypass the L1D",
        {"-gpgpu_gmem_skip_L1D": "1"},
        ["l1d.global_loads=bypass"], BASE_CORE_MHZ),
    "sms_30": Change(
        "15 SMs -> 30",
        {"-gpgpu_n_clusters": "30", "icnt:k": "42"},  # the crossbar's nodes: 30 SMs and 12 L2 slices
        ["gpu.num_sms=30"], BASE_CORE_MHZ),
    "dram_fifo": Change(
        "DRAM scheduler FR-FCFS -> FIFO",
        {"-gpgpu_dram_scheduler": "0"},
        # GPGPU-Sim's FIFO queue holds 2 requests whatever -gpgpu_frfcfs_dram_sched_queue_size says (dram.cc:
        # mrqq = fifo_pipeline("mrqq", 0, 2)), and each bank one more
        ["dram.scheduler=fifo", "dram.queue=2"], BASE_CORE_MHZ),
    "l2_half": Change(
        "L2 halved: 32 sets per slice (384 KB in all)",
        {"-gpgpu_cache:dl2": "S:32:128:8,L:B:m:L:L,A:256:4,4:0,32"},
        ["l2.slice_size=32768"], BASE_CORE_MHZ),
    "l2_double": Change(
        "L2 doubled: 128 sets per slice (1.5 MB in all)",
        {"-gpgpu_cache:dl2": "S:128:128:8,L:B:m:L:L,A:256:4,4:0,32"},
        ["l2.slice_size=131072"], BASE_CORE_MHZ),
    "warps_24": Change(
        "resident warps per SM 48 -> 24 (768 threads)",
        {"-gpgpu_shader_core_pipeline": "768:32"},
        ["sm.max_warps=24", "sm.max_threads=768"], BASE_CORE_MHZ),
    "core_clock_150": Change(
        "core clock +50 % (700 -> 1050 MHz), interconnect, L2 and DRAM clocks fixed",
        {"-gpgpu_clock_domains": "1050.0:700.0:700.0:924.0"},
        ["gpu.core_clock_mhz=1050"], 1050.0),
}
