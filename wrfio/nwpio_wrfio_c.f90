! The C boundary of the package (src/wrfio/wrfio_capi.h), seen from its Fortran entry points.
! The entry points themselves (ext_pnc_*.f90) are plain external subroutines with WRF's own
! argument lists, so that gfortran passes every CHARACTER's hidden length exactly as WRF's
! callers expect; they hand strings on as (characters, length) pairs.
module nwpio_wrfio_c
  use, intrinsic :: iso_c_binding, only: c_int, c_char
  implicit none
  private
  public :: c_int, c_char
  public :: nwpio_wrfio_ioinit, nwpio_wrfio_ioexit
  public :: nwpio_wrfio_open_for_write_begin, nwpio_wrfio_open_for_write_commit
  public :: nwpio_wrfio_open_for_read_begin, nwpio_wrfio_open_for_read_commit
  public :: nwpio_wrfio_inquire_opened, nwpio_wrfio_inquire_filename
  public :: nwpio_wrfio_ioclose, nwpio_wrfio_iosync
  public :: nwpio_wrfio_write_field, nwpio_wrfio_read_field
  public :: nwpio_wrfio_put_attribute, nwpio_wrfio_get_attribute
  public :: nwpio_wrfio_get_next_time, nwpio_wrfio_get_previous_time, nwpio_wrfio_set_time
  public :: nwpio_wrfio_get_var_info, nwpio_wrfio_last_error
  public :: KIND_TEXT, KIND_INT, KIND_REAL, KIND_DOUBLE, WRF_NO_ERR, WRF_WARN_NOOP

  ! Attribute kinds of nwpio_wrfio_put/get_attribute (logicals travel as KIND_INT, 0/1).
  integer(c_int), parameter :: KIND_TEXT = 0, KIND_INT = 1, KIND_REAL = 2, KIND_DOUBLE = 3
  integer, parameter :: WRF_NO_ERR = 0
  integer, parameter :: WRF_WARN_NOOP = -23  ! "package implements this routine as NOOP"

  interface
    integer(c_int) function nwpio_wrfio_ioinit() bind(C)
      import :: c_int
    end function
    integer(c_int) function nwpio_wrfio_ioexit() bind(C)
      import :: c_int
    end function

    integer(c_int) function nwpio_wrfio_open_for_write_begin(name, name_len, comm, sysdep, sysdep_len, handle) bind(C)
      import :: c_int, c_char
      character(kind=c_char), dimension(*), intent(in) :: name, sysdep
      integer(c_int), value :: name_len, comm, sysdep_len
      integer(c_int), intent(out) :: handle
    end function
    integer(c_int) function nwpio_wrfio_open_for_write_commit(handle) bind(C)
      import :: c_int
      integer(c_int), value :: handle
    end function
    integer(c_int) function nwpio_wrfio_open_for_read_begin(name, name_len, comm, sysdep, sysdep_len, handle) bind(C)
      import :: c_int, c_char
      character(kind=c_char), dimension(*), intent(in) :: name, sysdep
      integer(c_int), value :: name_len, comm, sysdep_len
      integer(c_int), intent(out) :: handle
    end function
    integer(c_int) function nwpio_wrfio_open_for_read_commit(handle) bind(C)
      import :: c_int
      integer(c_int), value :: handle
    end function
    integer(c_int) function nwpio_wrfio_inquire_opened(handle, name, name_len, file_status) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, name_len
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int), intent(out) :: file_status
    end function
    integer(c_int) function nwpio_wrfio_inquire_filename(handle, name, name_len, file_status) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, name_len
      character(kind=c_char), dimension(*), intent(out) :: name
      integer(c_int), intent(out) :: file_status
    end function
    integer(c_int) function nwpio_wrfio_ioclose(handle) bind(C)
      import :: c_int
      integer(c_int), value :: handle
    end function
    integer(c_int) function nwpio_wrfio_iosync(handle) bind(C)
      import :: c_int
      integer(c_int), value :: handle
    end function

    integer(c_int) function nwpio_wrfio_write_field(handle, date, date_len, var, var_len, field, field_type, &
        domain_desc, memory_order, memory_order_len, stagger, stagger_len, dim_names, dim_name_len, &
        domain_start, domain_end, memory_start, memory_end, patch_start, patch_end) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, date_len, var_len, field_type, domain_desc, memory_order_len, &
                               stagger_len, dim_name_len
      character(kind=c_char), dimension(*), intent(in) :: date, var, memory_order, stagger, dim_names
      type(*), dimension(*), intent(in) :: field
      integer(c_int), dimension(3), intent(in) :: domain_start, domain_end, memory_start, memory_end, &
                                                  patch_start, patch_end
    end function
    integer(c_int) function nwpio_wrfio_read_field(handle, date, date_len, var, var_len, field, field_type, &
        memory_order, memory_order_len, stagger, stagger_len, dim_names, dim_name_len, &
        domain_start, domain_end, memory_start, memory_end, patch_start, patch_end) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, date_len, var_len, field_type, memory_order_len, stagger_len, dim_name_len
      character(kind=c_char), dimension(*), intent(in) :: date, var, memory_order, stagger, dim_names
      type(*), dimension(*), intent(inout) :: field
      integer(c_int), dimension(3), intent(in) :: domain_start, domain_end, memory_start, memory_end, &
                                                  patch_start, patch_end
    end function

    integer(c_int) function nwpio_wrfio_put_attribute(handle, var, var_len, name, name_len, kind, data, count) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, var_len, name_len, kind, count
      character(kind=c_char), dimension(*), intent(in) :: var, name
      type(*), dimension(*), intent(in) :: data
    end function
    integer(c_int) function nwpio_wrfio_get_attribute(handle, var, var_len, name, name_len, kind, data, count, &
        out_count) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, var_len, name_len, kind, count
      character(kind=c_char), dimension(*), intent(in) :: var, name
      type(*), dimension(*), intent(inout) :: data
      integer(c_int), intent(out) :: out_count
    end function

    integer(c_int) function nwpio_wrfio_get_next_time(handle, date, date_len) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, date_len
      character(kind=c_char), dimension(*), intent(out) :: date
    end function
    integer(c_int) function nwpio_wrfio_get_previous_time(handle, date, date_len) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, date_len
      character(kind=c_char), dimension(*), intent(out) :: date
    end function
    integer(c_int) function nwpio_wrfio_set_time(handle, date, date_len) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, date_len
      character(kind=c_char), dimension(*), intent(in) :: date
    end function
    integer(c_int) function nwpio_wrfio_get_var_info(handle, var, var_len, ndim, memory_order, memory_order_len, &
        domain_start, domain_end, field_type) bind(C)
      import :: c_int, c_char
      integer(c_int), value :: handle, var_len, memory_order_len
      character(kind=c_char), dimension(*), intent(in) :: var
      character(kind=c_char), dimension(*), intent(out) :: memory_order
      integer(c_int), intent(out) :: ndim, field_type
      integer(c_int), dimension(*), intent(out) :: domain_start, domain_end
    end function

    subroutine nwpio_wrfio_last_error(text, text_len) bind(C)
      import :: c_int, c_char
      character(kind=c_char), dimension(*), intent(out) :: text
      integer(c_int), value :: text_len
    end subroutine
  end interface
end module nwpio_wrfio_c
