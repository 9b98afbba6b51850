/** Sign-in and the password pages. The pages themselves load lazily through `./routes`. */
export { login, useLogin } from './api/login';
