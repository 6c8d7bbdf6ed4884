//! `puppet-ca/v1`: the certificate authority over HTTP, as puppetserver
//! serves it. Anyone may fetch the CA certificate, the CRL and signed
//! certificates and submit a request; certificate statuses are for CA
//! administrators only (`pp_cli_auth`, or a certificate the configuration
//! names).

use hyper::{Method, Response, StatusCode};
use marionette_ca::{CaError, CertificateState, CsrOutcome};

use crate::http::{Body, Client, Request, forbidden, json, text};
use crate::server::State;

pub(crate) fn handle(
    state: &State,
    client: &Client,
    request: &Request,
    rest: &str,
) -> Response<Body> {
    let (endpoint, name) = rest.split_once('/').unwrap_or((rest, ""));
    let ca = &state.ca;
    match (&request.method, endpoint) {
        (&Method::GET, "certificate") if name == "ca" => {
            text(StatusCode::OK, ca.ca_certificate_pem().to_string())
        }
        (&Method::GET, "certificate") => match ca.certificate_pem(name) {
            Ok(Some(pem)) => text(StatusCode::OK, pem),
            Ok(None) => not_found(&format!("Could not find certificate {name}")),
            Err(e) => failure(&e),
        },
        (&Method::GET, "certificate_revocation_list") if name == "ca" => match ca.crl_pem() {
            Ok(pem) => text(StatusCode::OK, pem),
            Err(e) => failure(&e),
        },
        (&Method::GET, "certificate_request") => match ca.csr_pem(name) {
            Ok(Some(pem)) => text(StatusCode::OK, pem),
            Ok(None) => not_found(&format!("Could not find certificate_request {name}")),
            Err(e) => failure(&e),
        },
        (&Method::PUT, "certificate_request") => {
            let pem = String::from_utf8_lossy(&request.body);
            match ca.submit_csr(name, &pem) {
                Ok(CsrOutcome::Signed) => {
                    state.log(&format!("Signed certificate request for {name}"));
                    state.audit(client, "autosigned", name);
                    text(StatusCode::OK, "")
                }
                Ok(_) => {
                    state.log(&format!(
                        "Certificate request for {name} is waiting to be signed"
                    ));
                    text(StatusCode::OK, "")
                }
                Err(e) => text(StatusCode::BAD_REQUEST, e.to_string()),
            }
        }
        (_, "certificate_status" | "certificate_statuses")
            if !client.may_administer(&state.config.ca_admins) =>
        {
            forbidden(request)
        }
        (&Method::GET, "certificate_status") => match ca.certificate_status(name) {
            Ok(status) => json(&serde_json::to_value(status).unwrap_or_default()),
            Err(e) => failure(&e),
        },
        (&Method::GET, "certificate_statuses") => {
            let state_filter = match request.param("state") {
                Some("requested") => Some(CertificateState::Requested),
                Some("signed") => Some(CertificateState::Signed),
                Some("revoked") => Some(CertificateState::Revoked),
                _ => None,
            };
            match ca.certificate_statuses(state_filter) {
                Ok(all) => json(&serde_json::to_value(all).unwrap_or_default()),
                Err(e) => failure(&e),
            }
        }
        (&Method::PUT, "certificate_status") => {
            let desired = serde_json::from_slice::<serde_json::Value>(&request.body)
                .ok()
                .and_then(|v| {
                    v.get("desired_state")
                        .and_then(|s| s.as_str())
                        .map(str::to_string)
                });
            let result = match desired.as_deref() {
                Some("signed") => ca.sign(name).map(|_| state.audit(client, "signed", name)),
                Some("revoked") => ca.revoke(name).map(|()| {
                    state.reload_crl();
                    state.audit(client, "revoked", name);
                }),
                _ => {
                    return text(
                        StatusCode::BAD_REQUEST,
                        "State must be 'signed' or 'revoked'",
                    );
                }
            };
            match result {
                Ok(()) => text(StatusCode::NO_CONTENT, ""),
                Err(e) => failure(&e),
            }
        }
        (&Method::DELETE, "certificate_status") => {
            match ca.clean(name).map(|()| {
                state.reload_crl();
                state.audit(client, "cleaned", name);
            }) {
                Ok(()) => text(StatusCode::NO_CONTENT, ""),
                Err(e) => failure(&e),
            }
        }
        _ => not_found(&format!("No route for {} {}", request.method, request.path)),
    }
}

fn not_found(message: &str) -> Response<Body> {
    text(StatusCode::NOT_FOUND, format!("Not Found: {message}"))
}

/// A CA error as puppetserver answers it: what the caller got wrong is a
/// 4xx with the CA's message.
fn failure(error: &CaError) -> Response<Body> {
    let status = match error {
        CaError::NotFound { .. } => StatusCode::NOT_FOUND,
        CaError::NoRequest { .. } | CaError::NotSigned { .. } | CaError::Duplicate { .. } => {
            StatusCode::CONFLICT
        }
        CaError::Io { .. } | CaError::CorruptFile { .. } | CaError::Crypto { .. } => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
        _ => StatusCode::BAD_REQUEST,
    };
    text(status, error.to_string())
}
