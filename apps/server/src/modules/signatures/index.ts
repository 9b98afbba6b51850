/**
 * Electronic signatures (21 CFR Part 11): verifying the password (and the
 * second factor) a signature re-enters, and the signature a change carries.
 * Its own module, so that what needs a signature does not load the bell
 * (notifications) and what needs the bell does not load identity.
 */
export {
  API_KEY_CANNOT_SIGN,
  WRONG_SIGNATURE_PASSWORD,
  secondFactorNote,
  verifyChangeSignature,
  verifySignaturePassword,
  type ChangeSignature,
} from './signature';
