"""tile kernels and tile_rt arrays from Python on a GPU, with PyTorch: CUDA tensors go to a
kernel and tile_rt arrays to torch through DLPack without copies, and the borrow rules hold
across the boundary. Run by bench/gpu/python_torch.sh (the modules of test/Python, built with
nvcc); test/Python/test_python_module.py is its counterpart with numpy on the CPU backend."""
import gc
import unittest

import torch

import tile_rt
import tile_test_kernels as k


class KernelsOnTorchTensors(unittest.TestCase):
    def test_output_written_in_place(self):
        n = 100003  # 256 does not divide it: the last program's piece is cut
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        z = torch.zeros(n, device="cuda")
        before = z.data_ptr()
        k.saxpy(z, 2.0, x, y)
        self.assertEqual(z.data_ptr(), before)
        torch.testing.assert_close(z, 2.0 * x + y, rtol=0, atol=0)

    def test_work_queued_on_torch_stream_comes_first(self):
        # x is written by torch just before the launch: the kernel must see the new values.
        n = 1 << 24
        x = torch.zeros(n, device="cuda")
        y = torch.zeros(n, device="cuda")
        z = torch.empty(n, device="cuda")
        x.fill_(3.0)
        k.saxpy(z, 1.0, x, y)
        self.assertEqual(torch.count_nonzero(z != 3.0).item(), 0)

    def test_strided_tensor_read_through_its_strides(self):
        a = torch.arange(64 * 96, dtype=torch.float32, device="cuda").reshape(64, 96)
        t = a.t()  # a transposed view
        out = torch.zeros(96, 64, device="cuda")
        k.transpose_pieces(out, t)
        want = torch.zeros_like(out)
        for i in range(0, 96, 16):
            for j in range(0, 64, 16):
                want[i:i + 16, j:j + 16] = t[i:i + 16, j:j + 16].t()
        torch.testing.assert_close(out, want, rtol=0, atol=0)

    def test_one_tensor_written_and_read_is_refused(self):
        z = torch.ones(512, device="cuda")
        with self.assertRaisesRegex(RuntimeError, "borrow|lent|overlap"):
            k.saxpy(z, 1.0, z, z)
        self.assertTrue(torch.equal(z, torch.ones(512, device="cuda")))

    def test_element_type_must_match_the_parameter(self):
        z = torch.zeros(256, dtype=torch.float64, device="cuda")
        x = torch.zeros(256, device="cuda")
        with self.assertRaisesRegex(RuntimeError, "float64|float32"):
            k.saxpy(z, 1.0, x, x)


class TileRtArraysWithTorch(unittest.TestCase):
    def test_arrays_live_on_the_gpu(self):
        self.assertIn("cuda", tile_rt.zeros((4,), "float32").device.name)
        self.assertEqual(tile_rt.default_device().multiprocessors,
                         torch.cuda.get_device_properties(0).multi_processor_count)

    def test_torch_view_is_the_arrays_memory(self):
        a = tile_rt.zeros((300,), "float32")
        v = torch.from_dlpack(a)
        self.assertEqual(v.device.type, "cuda")
        self.assertEqual(v.data_ptr(), a.data_ptr)
        self.assertEqual(tuple(v.shape), (300,))

    def test_array_lent_to_torch_is_not_launched_on(self):
        a = tile_rt.zeros((512,), "float32")
        x = torch.ones(512, device="cuda")
        v = torch.from_dlpack(a)
        with self.assertRaisesRegex(RuntimeError, "borrow|lent"):
            k.saxpy(a, 1.0, x, x)
        del v
        gc.collect()
        k.saxpy(a, 1.0, x, x)  # the loan came back with the view
        torch.testing.assert_close(torch.from_dlpack(a), torch.full((512,), 2.0, device="cuda"))

    def test_from_dlpack_borrows_torch_memory(self):
        src = torch.arange(10, dtype=torch.int64, device="cuda")
        a = tile_rt.from_dlpack(src)
        self.assertEqual(a.dtype, "int64")
        self.assertEqual(a.data_ptr, src.data_ptr())
        src[3] = 42
        self.assertEqual(torch.from_dlpack(a)[3].item(), 42)


if __name__ == "__main__":
    unittest.main()
