"""tile kernels and tile_rt arrays from Python: numpy arrays go to a kernel and tile_rt arrays to
numpy through DLPack without copies, and the borrow rules hold across the boundary.
Run by ctest (python.module) with PYTHONPATH holding the tile_rt module and the kernel module."""
import gc
import unittest

import numpy as np

import tile_rt
import tile_test_kernels as k


class KernelsOnNumpyArrays(unittest.TestCase):
    def test_output_written_in_place(self):
        n = 1000  # 256 does not divide it: the last program's piece is cut
        x = np.arange(n, dtype=np.float32)
        y = np.full(n, 0.5, dtype=np.float32)
        z = np.zeros(n, dtype=np.float32)
        k.saxpy(z, 2.0, x, y)
        np.testing.assert_array_equal(z, 2.0 * x + 0.5)

    def test_strided_input_read_through_its_strides(self):
        a = np.arange(32 * 48, dtype=np.float32).reshape(32, 48)
        t = a.T  # a transposed view: strides (4, 192) bytes
        out = np.zeros((48, 32), dtype=np.float32)
        k.transpose_pieces(out, t)
        want = np.zeros_like(out)
        for i in range(0, 48, 16):
            for j in range(0, 32, 16):
                want[i:i + 16, j:j + 16] = t[i:i + 16, j:j + 16].T
        np.testing.assert_array_equal(out, want)

    def test_one_array_written_and_read_is_refused(self):
        z = np.ones(512, dtype=np.float32)
        with self.assertRaisesRegex(RuntimeError, "borrow|lent|overlap"):
            k.saxpy(z, 1.0, z, z)
        np.testing.assert_array_equal(z, np.ones(512, dtype=np.float32))

    def test_element_type_must_match_the_parameter(self):
        z = np.zeros(256, dtype=np.float64)
        x = np.zeros(256, dtype=np.float32)
        with self.assertRaisesRegex(RuntimeError, "float64|float32"):
            k.saxpy(z, 1.0, x, x)

    def test_argument_count_is_checked(self):
        with self.assertRaisesRegex(TypeError, "takes 4 arguments, 2 given"):
            k.saxpy(np.zeros(4, dtype=np.float32), 1.0)

    def test_non_array_argument_is_a_type_error(self):
        with self.assertRaisesRegex(TypeError, "__dlpack__"):
            k.saxpy([1.0, 2.0], 1.0, np.zeros(2, np.float32), np.zeros(2, np.float32))


class TileRtArrays(unittest.TestCase):
    def test_zeros_has_shape_and_dtype(self):
        a = tile_rt.zeros((4, 256), "int32")
        self.assertEqual(a.shape, (4, 256))
        self.assertEqual(a.dtype, "int32")
        self.assertIn("cpu", a.device.name)

    def test_numpy_view_is_the_arrays_memory(self):
        a = tile_rt.zeros((300,), "float32")
        v = np.from_dlpack(a)
        self.assertEqual(v.__array_interface__["data"][0], a.data_ptr)
        self.assertEqual(v.shape, (300,))

    def test_array_is_lent_to_one_consumer_at_a_time(self):
        a = tile_rt.zeros((8,), "float32")
        v = np.from_dlpack(a)
        with self.assertRaisesRegex(RuntimeError, "borrow|lent"):
            np.from_dlpack(a)
        del v
        gc.collect()
        np.from_dlpack(a)  # the first view is gone: its loan came back

    def test_array_lent_to_numpy_is_not_launched_on(self):
        a = tile_rt.zeros((512,), "float32")
        x = np.ones(512, dtype=np.float32)
        v = np.from_dlpack(a)
        with self.assertRaisesRegex(RuntimeError, "borrow|lent"):
            k.saxpy(a, 1.0, x, x)
        del v
        gc.collect()
        k.saxpy(a, 1.0, x, x)  # the loan came back with the view
        np.testing.assert_array_equal(np.from_dlpack(a), np.full(512, 2.0, dtype=np.float32))

    def test_array_read_by_two_parameters(self):
        a = tile_rt.zeros((256,), "float32")
        z = np.zeros(256, dtype=np.float32)
        k.saxpy(a, 1.0, np.full(256, 2.0, dtype=np.float32), np.zeros(256, dtype=np.float32))
        k.saxpy(z, 3.0, a, a)  # two shared loans of one array
        np.testing.assert_array_equal(z, np.full(256, 8.0, dtype=np.float32))
        with self.assertRaisesRegex(RuntimeError, "borrow|lent|overlap"):
            k.saxpy(a, 1.0, a, z)  # written and read

    def test_from_dlpack_borrows_numpy_memory(self):
        src = np.arange(10, dtype=np.int64)
        a = tile_rt.from_dlpack(src)
        self.assertEqual(a.dtype, "int64")
        self.assertEqual(a.shape, (10,))
        self.assertEqual(a.data_ptr, src.__array_interface__["data"][0])
        src[3] = 42
        self.assertEqual(np.from_dlpack(a)[3], 42)

    def test_device_counts_its_multiprocessors(self):
        self.assertGreaterEqual(tile_rt.default_device().multiprocessors, 1)

    def test_unknown_dtype_is_a_value_error(self):
        with self.assertRaisesRegex(ValueError, "unknown dtype"):
            tile_rt.zeros((4,), "float128")


if __name__ == "__main__":
    unittest.main()
