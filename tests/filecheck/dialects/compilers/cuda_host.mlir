// RUN: tmem-opt %s | filecheck %s
// RUN: tmem-opt %s -p tmem-verify > /dev/null
// CuTe DSL's host side: cuda.* ops (custom or generic form), !cuda types and #cuda attributes
// are read and ignored; the device code in gpu.module is what the tools check.

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_100a">] {
    llvm.func @k(%arg0: !llvm.ptr<1>) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin}, gpu.kernel, nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
      llvm.return
    }
  }
  llvm.func @host(%p: !llvm.ptr, %a: i32) {
    %31 = builtin.unrealized_conversion_cast %p : !llvm.ptr to !cuda.launch_cfg<max_attrs = 2>
    %32 = cuda.launch_ex @kernels::@k<%31> (%a) : !cuda.launch_cfg<max_attrs = 2>, (i32) -> !cuda.result
    cuda.return_if_error %32 : !cuda.result
    %33 = "cuda.launch_ex"(%31, %a) <{assume_kernel_attr = #cuda.assume_kernel_attr<true>, callee = @kernels::@k}> : (!cuda.launch_cfg<max_attrs = 2>, i32) -> !cuda.result
    llvm.return
  }
}

// CHECK:      llvm.func @k(%{{.*}}: !llvm.ptr<1>) attributes {cu_attrs = {max_dynamic_shared_size_bytes = #cuda.dev_max_shared_memory_optin}
// CHECK:      llvm.func @host
// CHECK-NEXT:   builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !cuda.launch_cfg<max_attrs = 2>
// CHECK-NEXT:   "cuda.launch_ex"() : () -> !cuda.result
// CHECK-NEXT:   "cuda.return_if_error"() : () -> ()
// CHECK-NEXT:   "cuda.launch_ex"(%{{.*}}, %{{.*}}) <{assume_kernel_attr = #cuda.assume_kernel_attr<true>
