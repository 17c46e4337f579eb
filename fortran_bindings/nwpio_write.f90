! nwpio_write: one generic over real(4), real(8), integer(4) and ranks 0 to 3, e.g.
!   real :: u(ims:ime, kms:kme, jms:jme);  call nwpio_write(s, 'U', u, ierr)
! The array is passed without a copy: nwpio records its address and reads it in
! nwpio_end_frame, so the array must stay allocated and unchanged until nwpio_end_frame returns
! (as WRF's grid arrays do). A non-contiguous array (a section such as u(:,1,:)) is an error,
! since a copy would be gone by then. Scalars are copied and may be expressions.
! The array's extents are checked against the declared memory bounds of the variable
! (ims:ime, kms:kme, jms:jme for 'XZY', ...).
module nwpio_write_m
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: real32, real64, int32
  use nwpio_c, only: c_write, c_report_error
  use nwpio_base, only: nwpio_stream, c_string, finish, NWPIO_REAL4, NWPIO_REAL8, NWPIO_INT4, &
                        NWPIO_ERR_INVALID_ARGUMENT
  implicit none
  private
  public :: nwpio_write

  interface nwpio_write
    module procedure write_r4_0d, write_r4_1d, write_r4_2d, write_r4_3d, &
      write_r8_0d, write_r8_1d, write_r8_2d, write_r8_3d, &
      write_i4_0d, write_i4_1d, write_i4_2d, write_i4_3d
  end interface nwpio_write

contains

  ! The common path: contiguity, then the C API's kind, rank and bounds checks.
  subroutine write_array(s, name, data, kind, extents, contiguous, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    type(c_ptr), intent(in) :: data
    integer, intent(in) :: kind
    integer, intent(in) :: extents(:)
    logical, intent(in) :: contiguous
    integer, intent(out), optional :: ierr
    integer(c_int) :: lb(max(1, size(extents))), ub(max(1, size(extents))), rc
    if (.not. contiguous) then
      rc = c_report_error(s%handle, int(NWPIO_ERR_INVALID_ARGUMENT, c_int), c_string('nwpio_write: variable ' // &
           trim(name) // ': the array is not contiguous (an array section?); nwpio reads it at ' // &
           'nwpio_end_frame and cannot keep a temporary copy: pass the whole array'))
    else
      lb = 1
      ub = 0
      ub(1:size(extents)) = int(extents, c_int)
      rc = c_write(s%handle, c_string(name), data, int(kind, c_int), int(size(extents), c_int), lb, ub)
    end if
    call finish(rc, s%handle, ierr)
  end subroutine write_array

  subroutine write_r4_0d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real32), intent(in), target :: array
    integer, intent(out), optional :: ierr
    call write_array(s, name, c_loc(array), NWPIO_REAL4, [integer ::], .true., ierr)
  end subroutine write_r4_0d

  subroutine write_r4_1d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real32), intent(in), target :: array(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1))
    call write_array(s, name, p, NWPIO_REAL4, shape(array), is_contiguous(array), ierr)
  end subroutine write_r4_1d

  subroutine write_r4_2d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real32), intent(in), target :: array(:,:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1,1))
    call write_array(s, name, p, NWPIO_REAL4, shape(array), is_contiguous(array), ierr)
  end subroutine write_r4_2d

  subroutine write_r4_3d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real32), intent(in), target :: array(:,:,:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1,1,1))
    call write_array(s, name, p, NWPIO_REAL4, shape(array), is_contiguous(array), ierr)
  end subroutine write_r4_3d

  subroutine write_r8_0d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real64), intent(in), target :: array
    integer, intent(out), optional :: ierr
    call write_array(s, name, c_loc(array), NWPIO_REAL8, [integer ::], .true., ierr)
  end subroutine write_r8_0d

  subroutine write_r8_1d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real64), intent(in), target :: array(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1))
    call write_array(s, name, p, NWPIO_REAL8, shape(array), is_contiguous(array), ierr)
  end subroutine write_r8_1d

  subroutine write_r8_2d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real64), intent(in), target :: array(:,:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1,1))
    call write_array(s, name, p, NWPIO_REAL8, shape(array), is_contiguous(array), ierr)
  end subroutine write_r8_2d

  subroutine write_r8_3d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    real(real64), intent(in), target :: array(:,:,:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1,1,1))
    call write_array(s, name, p, NWPIO_REAL8, shape(array), is_contiguous(array), ierr)
  end subroutine write_r8_3d

  subroutine write_i4_0d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    integer(int32), intent(in), target :: array
    integer, intent(out), optional :: ierr
    call write_array(s, name, c_loc(array), NWPIO_INT4, [integer ::], .true., ierr)
  end subroutine write_i4_0d

  subroutine write_i4_1d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    integer(int32), intent(in), target :: array(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1))
    call write_array(s, name, p, NWPIO_INT4, shape(array), is_contiguous(array), ierr)
  end subroutine write_i4_1d

  subroutine write_i4_2d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    integer(int32), intent(in), target :: array(:,:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1,1))
    call write_array(s, name, p, NWPIO_INT4, shape(array), is_contiguous(array), ierr)
  end subroutine write_i4_2d

  subroutine write_i4_3d(s, name, array, ierr)
    type(nwpio_stream), intent(in) :: s
    character(len=*), intent(in) :: name
    integer(int32), intent(in), target :: array(:,:,:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(array) > 0 .and. is_contiguous(array)) p = c_loc(array(1,1,1))
    call write_array(s, name, p, NWPIO_INT4, shape(array), is_contiguous(array), ierr)
  end subroutine write_i4_3d
end module nwpio_write_m
