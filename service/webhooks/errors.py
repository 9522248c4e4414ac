"""Errors of the webhooks' admin API, each with a stable `code` (service/api/errors.py
maps them to HTTP).

WebhookError
├── WebhookNotFound      not_found            (404)
├── InvalidWebhookUrl    invalid_webhook_url  (422)
└── NothingToRedeliver   nothing_to_redeliver (409)
"""

from __future__ import annotations


class WebhookError(Exception):
    code = "webhook_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WebhookNotFound(WebhookError):
    code = "not_found"


class InvalidWebhookUrl(WebhookError):
    code = "invalid_webhook_url"


class NothingToRedeliver(WebhookError):
    code = "nothing_to_redeliver"
