import FormControl from '@mui/material/FormControl';
import FormHelperText, { type FormHelperTextProps } from '@mui/material/FormHelperText';
import InputLabel, { type InputLabelProps } from '@mui/material/InputLabel';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ChangeEventHandler, type ReactNode } from 'react';

export interface OutlinedTextFieldProps {
  id?: string;
  label?: ReactNode;
  value?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  type?: string;
  placeholder?: string;
  autoComplete?: string;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  sx?: SxProps<Theme>;
  slotProps?: {
    htmlInput?: InputBaseComponentProps;
    input?: Partial<OutlinedInputProps>;
    inputLabel?: Partial<InputLabelProps>;
    formHelperText?: Partial<FormHelperTextProps>;
  };
}

/**
 * MUI's outlined `TextField` (same markup: label, input and helper text tied
 * by id, the same class names), for the screens of the first route. MUI's
 * `TextField` also carries its `select` mode (Select, Menu, Popover: about
 * 10 kB gzip) into every chunk that uses it; this one cannot be a select.
 */
export function OutlinedTextField({
  id: idProp,
  label,
  value,
  onChange,
  type,
  placeholder,
  autoComplete,
  size,
  fullWidth = false,
  error = false,
  helperText,
  sx,
  slotProps = {},
}: OutlinedTextFieldProps) {
  const generatedId = useId();
  const id = idProp ?? generatedId;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const labelId = label ? `${id}-label` : undefined;
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      size={size}
      fullWidth={fullWidth}
      error={error}
      sx={sx}
    >
      {label != null && label !== '' ? (
        <InputLabel htmlFor={id} id={labelId} {...slotProps.inputLabel}>
          {label}
        </InputLabel>
      ) : null}
      <OutlinedInput
        aria-describedby={helperTextId}
        id={id}
        label={label}
        notched={slotProps.inputLabel?.shrink}
        type={type}
        value={value}
        onChange={onChange}
        placeholder={placeholder}
        autoComplete={autoComplete}
        fullWidth={fullWidth}
        inputProps={slotProps.htmlInput}
        {...slotProps.input}
      />
      {helperText ? (
        <FormHelperText id={helperTextId} {...slotProps.formHelperText}>
          {helperText}
        </FormHelperText>
      ) : null}
    </FormControl>
  );
}
