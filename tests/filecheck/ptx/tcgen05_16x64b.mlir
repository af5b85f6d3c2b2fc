// RUN: tmem-opt %s -t ptx | filecheck %s
// RUN: tmem-opt %s -t ptx --ptxas-check > /dev/null
// REQUIRES: ptxas

// Every legal .num of tcgen05.ld/st .16x64b (with and without pack::16b / unpack::16b),
// in LLVM NVPTX's exact spelling: register lists, bracketed address.

// CHECK-LABEL: .visible .entry ld_16x64b(
// CHECK: ld.param.b32 %r1, [ld_16x64b_param_0];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x1.b32 {%r2}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x2.b32 {%r3, %r4}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x4.b32 {%r5, %r6, %r7, %r8}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x8.b32 {%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x16.b32 {%r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x32.b32 {%r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x64.b32 {%r65, %r66, %r67, %r68, %r69, %r70, %r71, %r72, %r73, %r74, %r75, %r76, %r77, %r78, %r79, %r80, %r81, %r82, %r83, %r84, %r85, %r86, %r87, %r88, %r89, %r90, %r91, %r92, %r93, %r94, %r95, %r96, %r97, %r98, %r99, %r100, %r101, %r102, %r103, %r104, %r105, %r106, %r107, %r108, %r109, %r110, %r111, %r112, %r113, %r114, %r115, %r116, %r117, %r118, %r119, %r120, %r121, %r122, %r123, %r124, %r125, %r126, %r127, %r128}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x128.b32 {%r129, %r130, %r131, %r132, %r133, %r134, %r135, %r136, %r137, %r138, %r139, %r140, %r141, %r142, %r143, %r144, %r145, %r146, %r147, %r148, %r149, %r150, %r151, %r152, %r153, %r154, %r155, %r156, %r157, %r158, %r159, %r160, %r161, %r162, %r163, %r164, %r165, %r166, %r167, %r168, %r169, %r170, %r171, %r172, %r173, %r174, %r175, %r176, %r177, %r178, %r179, %r180, %r181, %r182, %r183, %r184, %r185, %r186, %r187, %r188, %r189, %r190, %r191, %r192, %r193, %r194, %r195, %r196, %r197, %r198, %r199, %r200, %r201, %r202, %r203, %r204, %r205, %r206, %r207, %r208, %r209, %r210, %r211, %r212, %r213, %r214, %r215, %r216, %r217, %r218, %r219, %r220, %r221, %r222, %r223, %r224, %r225, %r226, %r227, %r228, %r229, %r230, %r231, %r232, %r233, %r234, %r235, %r236, %r237, %r238, %r239, %r240, %r241, %r242, %r243, %r244, %r245, %r246, %r247, %r248, %r249, %r250, %r251, %r252, %r253, %r254, %r255, %r256}, [%r1];
// CHECK-NEXT: ret;
llvm.func @ld_16x64b(%t: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %v1 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<1xi32>
  %v2 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<2xi32>
  %v4 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<4xi32>
  %v8 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<8xi32>
  %v16 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<16xi32>
  %v32 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<32xi32>
  %v64 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<64xi32>
  %v128 = nvvm.tcgen05.ld %taddr shape = shape_16x64b : vector<128xi32>
  llvm.return
}

// CHECK-LABEL: .visible .entry ld_16x64b_pack(
// CHECK: ld.param.b32 %r1, [ld_16x64b_pack_param_0];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x1.pack::16b.b32 {%r2}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x2.pack::16b.b32 {%r3, %r4}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x4.pack::16b.b32 {%r5, %r6, %r7, %r8}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x8.pack::16b.b32 {%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x16.pack::16b.b32 {%r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x32.pack::16b.b32 {%r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x64.pack::16b.b32 {%r65, %r66, %r67, %r68, %r69, %r70, %r71, %r72, %r73, %r74, %r75, %r76, %r77, %r78, %r79, %r80, %r81, %r82, %r83, %r84, %r85, %r86, %r87, %r88, %r89, %r90, %r91, %r92, %r93, %r94, %r95, %r96, %r97, %r98, %r99, %r100, %r101, %r102, %r103, %r104, %r105, %r106, %r107, %r108, %r109, %r110, %r111, %r112, %r113, %r114, %r115, %r116, %r117, %r118, %r119, %r120, %r121, %r122, %r123, %r124, %r125, %r126, %r127, %r128}, [%r1];
// CHECK-NEXT: tcgen05.ld.sync.aligned.16x64b.x128.pack::16b.b32 {%r129, %r130, %r131, %r132, %r133, %r134, %r135, %r136, %r137, %r138, %r139, %r140, %r141, %r142, %r143, %r144, %r145, %r146, %r147, %r148, %r149, %r150, %r151, %r152, %r153, %r154, %r155, %r156, %r157, %r158, %r159, %r160, %r161, %r162, %r163, %r164, %r165, %r166, %r167, %r168, %r169, %r170, %r171, %r172, %r173, %r174, %r175, %r176, %r177, %r178, %r179, %r180, %r181, %r182, %r183, %r184, %r185, %r186, %r187, %r188, %r189, %r190, %r191, %r192, %r193, %r194, %r195, %r196, %r197, %r198, %r199, %r200, %r201, %r202, %r203, %r204, %r205, %r206, %r207, %r208, %r209, %r210, %r211, %r212, %r213, %r214, %r215, %r216, %r217, %r218, %r219, %r220, %r221, %r222, %r223, %r224, %r225, %r226, %r227, %r228, %r229, %r230, %r231, %r232, %r233, %r234, %r235, %r236, %r237, %r238, %r239, %r240, %r241, %r242, %r243, %r244, %r245, %r246, %r247, %r248, %r249, %r250, %r251, %r252, %r253, %r254, %r255, %r256}, [%r1];
// CHECK-NEXT: ret;
llvm.func @ld_16x64b_pack(%t: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %v1 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<1xi32>
  %v2 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<2xi32>
  %v4 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<4xi32>
  %v8 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<8xi32>
  %v16 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<16xi32>
  %v32 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<32xi32>
  %v64 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<64xi32>
  %v128 = nvvm.tcgen05.ld %taddr pack shape = shape_16x64b : vector<128xi32>
  llvm.return
}

// CHECK-LABEL: .visible .entry st_16x64b(
// CHECK: ld.param.b32 %r1, [st_16x64b_param_0];
// CHECK-NEXT: ld.param.b32 %r2, [st_16x64b_param_1];
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x1.b32 [%r1], {%r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x2.b32 [%r1], {%r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x4.b32 [%r1], {%r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x8.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x16.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x32.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x64.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x128.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: ret;
llvm.func @st_16x64b(%t: i32, %x: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %p = llvm.mlir.poison : vector<1xi32>
  %one = llvm.insertelement %x, %p[%c0 : i32] : vector<1xi32>
  %s1 = llvm.shufflevector %one, %one [0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s1 shape = shape_16x64b : vector<1xi32>
  %s2 = llvm.shufflevector %one, %one [0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s2 shape = shape_16x64b : vector<2xi32>
  %s4 = llvm.shufflevector %one, %one [0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s4 shape = shape_16x64b : vector<4xi32>
  %s8 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s8 shape = shape_16x64b : vector<8xi32>
  %s16 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s16 shape = shape_16x64b : vector<16xi32>
  %s32 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s32 shape = shape_16x64b : vector<32xi32>
  %s64 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s64 shape = shape_16x64b : vector<64xi32>
  %s128 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s128 shape = shape_16x64b : vector<128xi32>
  llvm.return
}

// CHECK-LABEL: .visible .entry st_16x64b_unpack(
// CHECK: ld.param.b32 %r1, [st_16x64b_unpack_param_0];
// CHECK-NEXT: ld.param.b32 %r2, [st_16x64b_unpack_param_1];
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x1.unpack::16b.b32 [%r1], {%r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x2.unpack::16b.b32 [%r1], {%r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x4.unpack::16b.b32 [%r1], {%r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x8.unpack::16b.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x16.unpack::16b.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x32.unpack::16b.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x64.unpack::16b.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: tcgen05.st.sync.aligned.16x64b.x128.unpack::16b.b32 [%r1], {%r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2, %r2};
// CHECK-NEXT: ret;
llvm.func @st_16x64b_unpack(%t: i32, %x: i32) attributes {nvvm.kernel} {
  %taddr = llvm.inttoptr %t : i32 to !llvm.ptr<6>
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %p = llvm.mlir.poison : vector<1xi32>
  %one = llvm.insertelement %x, %p[%c0 : i32] : vector<1xi32>
  %s1 = llvm.shufflevector %one, %one [0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s1 unpack shape = shape_16x64b : vector<1xi32>
  %s2 = llvm.shufflevector %one, %one [0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s2 unpack shape = shape_16x64b : vector<2xi32>
  %s4 = llvm.shufflevector %one, %one [0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s4 unpack shape = shape_16x64b : vector<4xi32>
  %s8 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s8 unpack shape = shape_16x64b : vector<8xi32>
  %s16 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s16 unpack shape = shape_16x64b : vector<16xi32>
  %s32 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s32 unpack shape = shape_16x64b : vector<32xi32>
  %s64 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s64 unpack shape = shape_16x64b : vector<64xi32>
  %s128 = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  nvvm.tcgen05.st %taddr, %s128 unpack shape = shape_16x64b : vector<128xi32>
  llvm.return
}
